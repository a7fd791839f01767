"""pagemill as an MCP server for agents: the tools and the document resource (``tools.py``), how
they reach pagemill — through the REST API's own application, in process (``api_calls.py``) —
and ``/mcp`` served over Streamable HTTP beside the API (``http_endpoint.py``); ``pagemill mcp``
(app/cli/mcp.py) serves the same tools on stdio."""
