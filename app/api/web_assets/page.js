// pagemill's web page: plain JavaScript, no framework, no build step.
//
// Everything the API returns is untrusted text: it reaches the page only as text nodes
// (el() below, textContent) or as attribute values, never through innerHTML.  The search
// snippet's **bold** marks become <mark> elements built node by node.
//
// The job view reads GET /v1/jobs/<id>/events with fetch() and a stream reader rather than
// EventSource: the API takes the key only in the Authorization header, which EventSource
// cannot send (and a key in a URL would end up in logs and history).
"use strict";

(() => {
  const KEY_STORAGE = "pagemill.apiKey";
  // The jobs this tab follows, so that a reload shows them again.
  const JOBS_STORAGE = "pagemill.jobs";
  const JOBS_KEPT = 20;
  // Newest jobs looked through for a search hit's document (hits name the id the client gave;
  // the Markdown is fetched by the document row's uuid).
  const JOBS_SEARCHED_FOR_A_DOCUMENT = 20;
  const PAGE_LIMIT = 500;
  const TERMINAL_JOB_STATES = new Set(["completed", "completed_with_errors", "failed", "cancelled"]);

  const $ = (id) => document.getElementById(id);

  // An element with properties and children; strings become text nodes, never markup.
  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = String(value);
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // ---- the key and API calls ---------------------------------------------------------

  function apiKey() {
    return sessionStorage.getItem(KEY_STORAGE) || "";
  }

  class ApiProblem extends Error {
    constructor(status, code, message, details) {
      super(message);
      this.status = status;
      this.code = code;
      this.details = details;
      this.retryAfter = null;
    }

    describe() {
      let text = this.status ? `${this.message} (${this.status} ${this.code})` : this.message;
      if (this.details !== undefined && this.details !== null) {
        text += ": " + JSON.stringify(this.details).slice(0, 500);
      }
      return text;
    }
  }

  async function problemOf(response) {
    let code = "http_error";
    let message = response.statusText || "the request failed";
    let details;
    try {
      const body = await response.json();
      if (body && body.error) ({ code, message, details } = body.error);
    } catch {
      // not the API's JSON error body (a proxy's page, say): keep the status line
    }
    const problem = new ApiProblem(response.status, String(code), String(message), details);
    const retryAfter = Number(response.headers.get("Retry-After"));
    if (retryAfter > 0) problem.retryAfter = retryAfter;
    return problem;
  }

  function describeError(error) {
    if (error instanceof ApiProblem) return error.describe();
    return `cannot reach the API (${error && error.message ? error.message : error})`;
  }

  async function api(path, options = {}) {
    const key = apiKey();
    if (!key) throw new ApiProblem(0, "no_key", "Paste an API key first.");
    const headers = new Headers(options.headers || {});
    headers.set("Authorization", `Bearer ${key}`);
    const response = await fetch(path, { ...options, headers, cache: "no-store" });
    if (!response.ok) throw await problemOf(response);
    return response;
  }

  async function apiJson(path, options) {
    return (await api(path, options)).json();
  }

  function setStatus(node, text, isError = false) {
    node.textContent = text;
    node.classList.toggle("error", isError);
  }

  function setUpKey() {
    const input = $("api-key");
    const status = $("key-status");
    if (apiKey()) {
      input.value = apiKey();
      setStatus(status, "A key is set for this tab.");
    }
    $("key-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const key = input.value.trim();
      if (!key) return;
      sessionStorage.setItem(KEY_STORAGE, key);
      setStatus(status, "Checking the key…");
      try {
        await api("/v1/jobs?limit=1");
        setStatus(status, "Key accepted; kept for this tab only.");
      } catch (error) {
        setStatus(status, `Key saved, but the API refused it: ${describeError(error)}`, true);
      }
    });
    // Forgetting the key also drops everything read with it (a shared computer).
    $("forget-key").addEventListener("click", () => {
      sessionStorage.removeItem(KEY_STORAGE);
      sessionStorage.removeItem(JOBS_STORAGE);
      input.value = "";
      for (const job of jobs.values()) job.stop();
      jobs.clear();
      knownDocuments.clear();
      $("jobs").replaceChildren();
      $("no-jobs").hidden = false;
      $("results").replaceChildren();
      setStatus($("search-status"), "");
      $("document-view").hidden = true;
      $("document-markdown").textContent = "";
      history.replaceState(null, "", location.pathname);
      setStatus(status, "Key forgotten, and what was read with it.");
      input.focus();
    });
  }

  // ---- choosing files ----------------------------------------------------------------

  // By name: the API takes each upload's filename as its document id, so names are unique.
  const chosen = new Map();

  function renderChosen() {
    const list = $("chosen");
    list.replaceChildren();
    for (const file of chosen.values()) {
      list.append(el("li", {},
        el("span", { class: "name", text: file.name }),
        el("span", { class: "size", text: formatBytes(file.size) }),
        el("button", { type: "button", class: "small", "aria-label": `Remove ${file.name}`,
                       onclick: () => { chosen.delete(file.name); renderChosen(); $("files").focus(); } },
           "Remove")));
    }
    $("submit-job").disabled = chosen.size === 0;
  }

  function formatBytes(bytes) {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  }

  function addFiles(files) {
    for (const file of files) chosen.set(file.name, file);
    renderChosen();
    setStatus($("upload-status"), chosen.size ? `${chosen.size} file(s) ready to send.` : "");
  }

  function setUpUpload() {
    const input = $("files");
    const zone = $("drop-zone");
    input.addEventListener("change", () => {
      addFiles(input.files);
      input.value = ""; // the same file can be chosen again after removing it
    });
    for (const name of ["dragenter", "dragover"]) {
      zone.addEventListener(name, (event) => {
        event.preventDefault();
        zone.classList.add("over");
      });
    }
    for (const name of ["dragleave", "drop"]) {
      zone.addEventListener(name, () => zone.classList.remove("over"));
    }
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      if (event.dataTransfer) addFiles(event.dataTransfer.files);
    });
    // A file dropped beside the zone must not make the browser leave the page to open it.
    for (const name of ["dragover", "drop"]) {
      window.addEventListener(name, (event) => event.preventDefault());
    }
    $("clear-files").addEventListener("click", () => {
      chosen.clear();
      addFiles([]);
    });
    $("upload-form").addEventListener("submit", submitJob);
    renderChosen();
  }

  async function submitJob(event) {
    event.preventDefault();
    const status = $("upload-status");
    if (!chosen.size) return;
    const form = new FormData();
    for (const file of chosen.values()) form.append("files", file, file.name);
    const button = $("submit-job");
    button.disabled = true;
    setStatus(status, `Sending ${chosen.size} file(s)…`);
    try {
      const job = await apiJson("/v1/jobs", { method: "POST", body: form });
      chosen.clear();
      renderChosen();
      setStatus(status, `Job ${job.id} accepted.`);
      watchJob(job);
    } catch (error) {
      setStatus(status, `Not sent: ${describeError(error)}`, true);
    } finally {
      button.disabled = chosen.size === 0;
    }
  }

  // ---- following a job live ----------------------------------------------------------

  // The client's document id -> the newest completed row's uuid, from the jobs seen here.
  const knownDocuments = new Map();
  const jobs = new Map();

  // Server-Sent Events from a fetch() body: the parts of the format the API sends (event,
  // data, comments), parsed as the HTML standard says.  A lone CR at a chunk's end waits
  // for the next chunk, which may make it a CRLF.
  async function readEvents(body, onEvent) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let name = "";
    let data = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const lines = buffer.split(/\r\n|\r(?!$)|\n/);
      buffer = lines.pop();
      for (const line of lines) {
        if (line === "") {
          if (data.length) onEvent(name || "message", data.join("\n"));
          name = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue; // keep-alive comment
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let text = colon < 0 ? "" : line.slice(colon + 1);
        if (text.startsWith(" ")) text = text.slice(1);
        if (field === "event") name = text;
        else if (field === "data") data.push(text);
      }
    }
  }

  const COLUMNS = ["Document", "State", "Extractor", "Pages", "Chunks", "Error", "Markdown"];

  class JobView {
    constructor(job) {
      this.id = String(job.id);
      this.job = job;
      this.ended = false;
      this.forgotten = false;
      this.controller = null;
      this.rows = new Map();
      this.loading = null;
      this.stale = false;
      this.summary = el("p", { class: "summary", role: "status" });
      this.progress = el("progress", { max: 1, value: 0, "aria-label": "documents finished" });
      this.connection = el("p", { class: "connection" });
      this.body = el("tbody");
      const headingId = `job-${this.id}`;
      this.node = el("article", { class: "job", "aria-labelledby": headingId, "data-job": this.id },
        el("h3", { id: headingId }, "Job ", el("code", { text: this.id })),
        this.summary, this.progress, this.connection,
        el("div", { class: "table-scroll" },
          el("table", {},
            el("caption", { class: "visually-hidden", text: `Documents of job ${this.id}` }),
            el("thead", {}, el("tr", {}, ...COLUMNS.map((c) => el("th", { scope: "col", text: c })))),
            this.body)));
      this.renderSummary();
    }

    renderSummary() {
      const job = this.job;
      const finished = job.completed_documents + job.failed_documents + job.cancelled_documents;
      const parts = [`${job.status}`, `${job.completed_documents} of ${job.total_documents} completed`];
      if (job.failed_documents) parts.push(`${job.failed_documents} failed`);
      if (job.cancelled_documents) parts.push(`${job.cancelled_documents} cancelled`);
      if (job.processing_documents) parts.push(`${job.processing_documents} processing`);
      if (job.pending_documents) parts.push(`${job.pending_documents} pending`);
      this.summary.textContent = parts.join(" · ");
      this.summary.dataset.status = job.status;
      this.progress.max = Math.max(1, job.total_documents);
      this.progress.value = finished;
    }

    stop() {
      this.ended = true;
      this.forgotten = true;
      if (this.controller) this.controller.abort();
    }

    async follow() {
      let failures = 0;
      while (!this.ended) {
        this.controller = new AbortController();
        let wait = Math.min(1000 * 2 ** failures, 15000);
        try {
          const response = await api(`/v1/jobs/${encodeURIComponent(this.id)}/events`, {
            headers: { Accept: "text/event-stream" }, signal: this.controller.signal });
          failures = 0;
          this.connection.textContent = "Live.";
          await readEvents(response.body, (name, data) => this.onEvent(name, data));
          if (!this.ended) this.connection.textContent = "Stream closed; reconnecting…";
        } catch (error) {
          if (this.ended) break;
          if (error instanceof ApiProblem && [401, 403, 404].includes(error.status)) {
            this.connection.textContent = `Stopped following: ${error.describe()}`;
            this.connection.classList.add("error");
            return;
          }
          failures += 1;
          if (error instanceof ApiProblem && error.retryAfter) wait = error.retryAfter * 1000;
          this.connection.textContent = `Not live (${describeError(error)}); retrying in ` +
            `${Math.round(wait / 1000)} s.`;
          // Meanwhile the page still shows where the job is.
          this.refreshJob();
        }
        if (!this.ended) await sleep(wait);
      }
    }

    onEvent(name, data) {
      let payload;
      try {
        payload = JSON.parse(data);
      } catch {
        return;
      }
      if (name === "progress") {
        this.job = payload;
        this.renderSummary();
        this.refreshDocuments();
      } else if (name === "end") {
        this.ended = true;
        this.connection.textContent = `Finished: ${payload.status}.`;
        this.refreshDocuments();
      } else if (name === "error") {
        this.ended = true;
        this.connection.textContent = `Stopped following: ${payload.code}.`;
        this.connection.classList.add("error");
      }
    }

    async refreshJob() {
      try {
        this.job = await apiJson(`/v1/jobs/${encodeURIComponent(this.id)}`);
        this.renderSummary();
        if (TERMINAL_JOB_STATES.has(this.job.status)) this.ended = true;
        this.refreshDocuments();
      } catch {
        // the stream's retry says what is wrong
      }
    }

    // Events come faster than listings: at most one listing in flight, and one more after
    // it when an event arrived meanwhile.
    refreshDocuments() {
      if (this.loading) {
        this.stale = true;
        return;
      }
      this.loading = (async () => {
        do {
          this.stale = false;
          await this.loadDocuments();
        } while (this.stale);
      })().catch((error) => {
        this.connection.textContent = `Cannot list the documents: ${describeError(error)}`;
      }).finally(() => {
        this.loading = null;
      });
    }

    async loadDocuments() {
      let offset = 0;
      while (offset !== null) {
        const page = await apiJson(`/v1/jobs/${encodeURIComponent(this.id)}/documents` +
                                   `?limit=${PAGE_LIMIT}&offset=${offset}`);
        for (const doc of page.documents) this.renderDocument(doc);
        offset = page.next_offset;
      }
    }

    renderDocument(doc) {
      if (this.forgotten) return; // a listing that finished after the key was forgotten
      let row = this.rows.get(doc.id);
      if (!row) {
        const cells = COLUMNS.map((label) => el("td", { "data-label": label }));
        row = { tr: el("tr", { "data-document": doc.document_id }, ...cells), cells };
        this.rows.set(doc.id, row);
        this.body.append(row.tr);
      }
      const [name, state, extractor, pages, chunks, error, markdown] = row.cells;
      name.textContent = doc.document_id;
      state.replaceChildren(el("span", { class: `state state-${doc.status}`, text: doc.status }));
      extractor.textContent = doc.extractor || "—";
      pages.textContent = doc.page_count ?? "—";
      chunks.textContent = doc.chunk_count ?? "—";
      error.textContent = doc.error_code ? `${doc.error_code}: ${doc.error_message || ""}` : "";
      if (doc.status === "completed") {
        remember(doc);
        if (!markdown.firstChild) {
          markdown.append(el("a", { href: documentLink(doc.id), text: "Markdown",
                                    "aria-label": `Markdown of ${doc.document_id}` }));
        }
      }
    }
  }

  function remember(doc) {
    const known = knownDocuments.get(doc.document_id);
    if (!known || known.created_at <= doc.created_at) {
      knownDocuments.set(doc.document_id, { id: doc.id, created_at: doc.created_at });
    }
  }

  function watchJob(job) {
    $("no-jobs").hidden = true;
    const view = new JobView(job);
    jobs.set(view.id, view);
    $("jobs").prepend(view.node);
    sessionStorage.setItem(JOBS_STORAGE, JSON.stringify([...jobs.keys()].slice(-JOBS_KEPT)));
    view.follow();
  }

  async function restoreJobs() {
    let ids = [];
    try {
      ids = JSON.parse(sessionStorage.getItem(JOBS_STORAGE) || "[]");
    } catch {
      // unreadable: start afresh
    }
    for (const id of Array.isArray(ids) ? ids : []) {
      try {
        watchJob(await apiJson(`/v1/jobs/${encodeURIComponent(String(id))}`));
      } catch {
        // gone (deleted, or another key's): no longer followed
      }
    }
    sessionStorage.setItem(JOBS_STORAGE, JSON.stringify([...jobs.keys()]));
  }

  // ---- search ------------------------------------------------------------------------

  // "a **term** b" -> text, <mark>term</mark>, text.  Unbalanced marks (the text itself held
  // "**") at worst highlight the wrong words: every piece is still a text node.
  function highlighted(snippet) {
    const node = el("p", { class: "snippet" });
    String(snippet).split("**").forEach((piece, index) => {
      if (!piece) return;
      node.append(index % 2 ? el("mark", { text: piece }) : piece);
    });
    return node;
  }

  function pagesOf(hit) {
    if (hit.page_start === null || hit.page_start === undefined) return null;
    if (hit.page_end === null || hit.page_end === undefined || hit.page_end === hit.page_start) {
      return `page ${hit.page_start}`;
    }
    return `pages ${hit.page_start}–${hit.page_end}`;
  }

  function rank(name, value, score) {
    if (value === null || value === undefined) return `${name}: not ranked`;
    return `${name} rank ${value}` + (score === null || score === undefined ? "" : ` (${score.toFixed(3)})`);
  }

  function renderHit(hit) {
    const known = knownDocuments.get(hit.document_id);
    const href = known ? documentLink(known.id) : `#find=${encodeURIComponent(hit.document_id)}`;
    const facts = [rank("BM25", hit.bm25_rank, hit.bm25_score), rank("dense", hit.dense_rank, hit.dense_score),
                   pagesOf(hit), hit.mime_type].filter(Boolean);
    return el("li", { class: "hit", "data-document": hit.document_id },
      el("h3", {}, el("a", { href, text: hit.title || hit.document_id })),
      hit.title && hit.title !== hit.document_id ? el("p", { class: "id", text: hit.document_id }) : null,
      hit.heading_path && hit.heading_path.length
        ? el("p", { class: "heading-path", text: hit.heading_path.join(" › ") }) : null,
      highlighted(hit.snippet || hit.text),
      el("p", { class: "facts-line", text: `score ${hit.score.toFixed(4)} · ${facts.join(" · ")}` }));
  }

  function setUpSearch() {
    $("search-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const query = $("query").value.trim();
      const mode = $("mode").value;
      const status = $("search-status");
      const results = $("results");
      if (!query) return;
      setStatus(status, "Searching…");
      try {
        const body = await apiJson("/v1/search", {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ query, mode, k: 10 }) });
        results.replaceChildren(...body.results.map(renderHit));
        const how = [body.mode, body.mode === "hybrid" ? body.fusion : null,
                     body.bm25_path ? `BM25 ${body.bm25_path}` : null].filter(Boolean).join(", ");
        setStatus(status, `${body.results.length} result(s) for “${body.query}” (${how}).`);
      } catch (error) {
        results.replaceChildren();
        setStatus(status, `Search failed: ${describeError(error)}`, true);
      }
    });
  }

  // ---- one document's Markdown -------------------------------------------------------

  function documentLink(uuid) {
    return `#document=${encodeURIComponent(uuid)}`;
  }

  // A search hit names the client's id; its row is found among the newest jobs' documents.
  async function findDocument(externalId) {
    const known = knownDocuments.get(externalId);
    if (known) return known.id;
    const page = await apiJson(`/v1/jobs?limit=${JOBS_SEARCHED_FOR_A_DOCUMENT}`);
    for (const job of page.jobs) {
      let offset = 0;
      while (offset !== null) {
        const docs = await apiJson(`/v1/jobs/${encodeURIComponent(job.id)}/documents` +
                                   `?status=completed&limit=${PAGE_LIMIT}&offset=${offset}`);
        const match = docs.documents.find((d) => d.document_id === externalId);
        if (match) {
          remember(match);
          return match.id;
        }
        offset = docs.next_offset;
      }
    }
    return null;
  }

  function fact(list, term, value) {
    if (value === null || value === undefined || value === "") return;
    list.append(el("dt", { text: term }), el("dd", { text: value }));
  }

  async function showDocument(target) {
    const view = $("document-view");
    const status = $("document-status");
    const facts = $("document-facts");
    const markdown = $("document-markdown");
    const heading = $("document-heading");
    view.hidden = false;
    facts.replaceChildren();
    markdown.textContent = "";
    heading.textContent = "Document";
    setStatus(status, "Loading…");
    heading.focus();
    try {
      let uuid = target.uuid;
      if (!uuid) {
        uuid = await findDocument(target.externalId);
        if (!uuid) {
          setStatus(status, `“${target.externalId}” is not among the completed documents of the ` +
                            `${JOBS_SEARCHED_FOR_A_DOCUMENT} newest jobs.`, true);
          return;
        }
        history.replaceState(null, "", documentLink(uuid));
      }
      const doc = await apiJson(`/v1/documents/${encodeURIComponent(uuid)}`);
      heading.textContent = doc.filename || doc.document_id;
      fact(facts, "Id", doc.document_id);
      fact(facts, "State", doc.status);
      fact(facts, "Extractor", doc.extractor);
      fact(facts, "Pages", doc.page_count);
      fact(facts, "Chunks", doc.chunk_count);
      fact(facts, "Language", doc.language);
      fact(facts, "Quality", doc.quality === null ? null : doc.quality.toFixed(2));
      fact(facts, "Type", doc.mime_type);
      markdown.textContent = doc.markdown ?? "(no Markdown)";
      setStatus(status, "");
    } catch (error) {
      setStatus(status, `Cannot load the document: ${describeError(error)}`, true);
    }
  }

  function route() {
    let hash;
    try {
      hash = decodeURIComponent(location.hash);
    } catch {
      hash = ""; // a malformed link: show no document
    }
    if (hash.startsWith("#document=")) {
      showDocument({ uuid: hash.slice("#document=".length) });
    } else if (hash.startsWith("#find=")) {
      showDocument({ externalId: hash.slice("#find=".length) });
    } else {
      $("document-view").hidden = true;
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    setUpKey();
    setUpUpload();
    setUpSearch();
    window.addEventListener("hashchange", route);
    if (apiKey()) {
      restoreJobs();
      route();
    }
  });
})();
