"""Object storage for document bytes: local disk (``file://``) or S3-compatible (``s3://``).

Messages and rows carry object keys; only this module reads or writes bytes.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Protocol
from urllib.parse import urlparse


class ObjectNotFound(KeyError):
    """No object is stored under the key."""


class Storage(Protocol):
    url: str

    def put(self, key: str, data: bytes) -> None: ...

    def get(self, key: str) -> bytes: ...

    def delete(self, key: str) -> None: ...

    def exists(self, key: str) -> bool: ...

    def size(self, key: str) -> int | None:
        """Size in bytes of an object, ``None`` if there is none."""
        ...

    def presign_put(self, key: str, expires_in: int) -> str | None:
        """A URL a client can PUT an object's bytes to for ``expires_in`` seconds, or ``None``
        when this storage cannot take direct uploads."""
        ...


def _check_key(key: str) -> str:
    parts = key.split("/")
    if not key or key.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"invalid object key: {key!r}")
    return key


class LocalStorage:
    """Objects as files under a root directory; writes are atomic (temp file + rename)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.url = f"file://{root}"

    def _path(self, key: str) -> Path:
        return self.root / _check_key(key)

    def put(self, key: str, data: bytes) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def get(self, key: str) -> bytes:
        try:
            return self._path(key).read_bytes()
        except FileNotFoundError as exc:
            raise ObjectNotFound(key) from exc

    def delete(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def size(self, key: str) -> int | None:
        try:
            return self._path(key).stat().st_size
        except FileNotFoundError:
            return None

    def presign_put(self, key: str, expires_in: int) -> str | None:
        return None  # a directory on the server has no URL clients could PUT to


class S3Storage:
    """Objects in an S3-compatible bucket under an optional prefix (path-style addressing)."""

    def __init__(
        self,
        bucket: str,
        prefix: str = "",
        endpoint_url: str | None = None,
        region: str | None = None,
    ) -> None:
        import boto3
        from botocore.config import Config as BotoConfig

        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.url = f"s3://{bucket}/{self.prefix}" if self.prefix else f"s3://{bucket}"
        self._client = boto3.client(
            "s3",
            endpoint_url=endpoint_url,
            region_name=region,
            config=BotoConfig(s3={"addressing_style": "path"}, retries={"mode": "standard"}),
        )

    def _key(self, key: str) -> str:
        _check_key(key)
        return f"{self.prefix}/{key}" if self.prefix else key

    def put(self, key: str, data: bytes) -> None:
        self._client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data)

    def get(self, key: str) -> bytes:
        try:
            response = self._client.get_object(Bucket=self.bucket, Key=self._key(key))
        except self._client.exceptions.NoSuchKey as exc:
            raise ObjectNotFound(key) from exc
        return response["Body"].read()

    def delete(self, key: str) -> None:
        self._client.delete_object(Bucket=self.bucket, Key=self._key(key))

    def exists(self, key: str) -> bool:
        return self.size(key) is not None

    def size(self, key: str) -> int | None:
        """Size in bytes of an object, ``None`` if there is none."""
        from botocore.exceptions import ClientError

        try:
            head = self._client.head_object(Bucket=self.bucket, Key=self._key(key))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise
        return int(head["ContentLength"])

    def presign_put(self, key: str, expires_in: int) -> str:
        """A URL that lets a client PUT the object's bytes directly, for ``expires_in`` s."""
        return str(self._client.generate_presigned_url(
            "put_object", Params={"Bucket": self.bucket, "Key": self._key(key)}, ExpiresIn=expires_in))


def open_storage(url: str, endpoint_url: str | None = None, region: str | None = None) -> Storage:
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return LocalStorage(Path(parsed.path))
    if parsed.scheme == "s3":
        if not parsed.netloc:
            raise ValueError(f"STORAGE_URL needs a bucket: {url!r}")
        return S3Storage(parsed.netloc, parsed.path, endpoint_url=endpoint_url, region=region)
    raise ValueError(f"unsupported STORAGE_URL scheme {parsed.scheme!r}: use file:// or s3://")
