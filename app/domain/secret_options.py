"""Job options that are secrets: which they are, and how they are kept.

A secret option (today ``password``, which opens encrypted PDFs and Office files) is
write-only.  :func:`seal` encrypts it where every submission passes
(:func:`app.services.submission.submit_job`); :func:`reveal` decrypts it only where a document is
opened (``app/services/processing.py``); answers show :func:`public_options` and :func:`secret_names`
instead, so the value never leaves the process that uses it.

Stored form: the jobs row's ``options`` holds ``{"password": {"fernet": "gAAAA..."}}``, a
Fernet token (AES-128-CBC with HMAC-SHA256) of the value's JSON.  The key is, in order:

- ``PAGEMILL_SECRET_KEY``: one or more comma-separated Fernet keys.  The first encrypts,
  every one decrypts, so a key is rotated by putting the new one first and dropping the
  old one once no unfinished job needs it.
- with the embedded database and no key set, ``PAGEMILL_HOME/secret.key``, made once with
  mode 0600: the API and the workers share that home, hence the file.
- nothing, with an external ``DATABASE_URL``: processes may run on machines that share no
  home, so no key is one every process is sure to have.  A secret option is then refused
  (:class:`SecretKeyUnavailable`) rather than stored readable.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from extractors.base import ExtractionError

if TYPE_CHECKING:
    from cryptography.fernet import MultiFernet

    from app.config import Config

log = logging.getLogger(__name__)

#: Options whose values are never returned, logged or stored readable.  A new secret option
#: is one more name here (and a field in the request schema).
SECRET_OPTIONS: frozenset[str] = frozenset({"password"})
#: The embedded default's key file, inside ``PAGEMILL_HOME``.
KEY_FILE = "secret.key"
#: The error code of a document whose secret option cannot be decrypted.
UNREADABLE = "secret_unreadable"
_TOKEN = "fernet"

_NO_KEY = ("secret job options (password) are stored encrypted, and this server has no key: "
           "set PAGEMILL_SECRET_KEY (a Fernet key: python -c 'from cryptography.fernet import "
           "Fernet; print(Fernet.generate_key().decode())') for the API and every worker")
_BAD_KEY = ("PAGEMILL_SECRET_KEY must be one or more comma-separated Fernet keys "
            "(32 url-safe base64-encoded bytes each)")


class SecretKeyUnavailable(Exception):
    """No key to encrypt a secret option with (or the configured one is not a key)."""


def secret_names(options: Mapping[str, Any]) -> list[str]:
    """The secret options a job was given, by name: what an answer may say about them."""
    return sorted(name for name in options if name in SECRET_OPTIONS)


def public_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` without its secrets: what an answer may show."""
    return {name: value for name, value in options.items() if name not in SECRET_OPTIONS}


def seal(config: Config | None, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` as they are stored: each secret replaced by its Fernet token.

    Whatever a secret option holds is encrypted (a client cannot pass a ready-made token).
    Raises :class:`SecretKeyUnavailable` when there is a secret and no key."""
    sealed = dict(options)
    names = secret_names(options)
    if not names:
        return sealed
    fernet = _fernet(config)
    for name in names:
        plain = json.dumps(options[name]).encode()
        sealed[name] = {_TOKEN: fernet.encrypt(plain).decode("ascii")}
    return sealed


def reveal(config: Config, options: Mapping[str, Any], name: str) -> Any:
    """The plain value of secret option ``name`` (``None`` when not given).  Call it where the
    value is used, and keep the value out of logs and messages.

    A token that cannot be decrypted (another or a rotated-away key, no key at all) raises
    ``ExtractionError("secret_unreadable")``: each document of that job fails with that code
    (whether or not it needed the secret: the job's options are one), never the worker;
    retrying the job once the key is back runs them again."""
    value = options.get(name)
    if not (isinstance(value, dict) and _TOKEN in value):
        return value  # not given, or a row written before secrets were encrypted
    try:
        fernet = _fernet(config)
    except SecretKeyUnavailable as exc:
        raise ExtractionError(UNREADABLE, f"option {name!r} is encrypted, but {exc}") from None
    from cryptography.fernet import InvalidToken

    try:
        return json.loads(fernet.decrypt(str(value[_TOKEN]).encode("ascii")))
    except (InvalidToken, UnicodeEncodeError, ValueError):
        raise ExtractionError(UNREADABLE, f"option {name!r} cannot be decrypted with this worker's "
                              "key (PAGEMILL_SECRET_KEY differs from the one that encrypted it, "
                              "or no longer lists it)") from None


def blind(config: Config | None, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with each secret replaced by a keyed digest (HMAC-SHA256 under a key derived
    from the current encryption key): what a request fingerprint may hash.  Equal secrets give
    equal digests, but a stored fingerprint is no oracle to guess a short password offline,
    as a plain SHA-256 of a body holding it would be.  Raises :class:`SecretKeyUnavailable`
    like :func:`seal`."""
    names = secret_names(options)
    if not names:
        return dict(options)
    key = hmac.new(_keys(config)[0], b"pagemill request fingerprint", hashlib.sha256).digest()
    blinded = dict(options)
    for name in names:
        blinded[name] = {"hmac": hmac.new(key, json.dumps(options[name]).encode(),
                                          hashlib.sha256).hexdigest()}
    return blinded


def home_key(home: Path) -> bytes:
    """The embedded default's key, ``home/secret.key``: made once, mode 0600.

    Processes starting together race to make it: each writes a complete candidate to a
    private temporary file (``mkstemp``: O_CREAT|O_EXCL, 0600) and links it into place;
    ``link`` never replaces an existing name, so exactly one wins and the others read the
    winner's key.  A reader never sees a half-written key, and a crash cannot leave an empty
    key file behind (only a stray temporary one)."""
    from cryptography.fernet import Fernet

    path = home / KEY_FILE
    if not path.exists():
        home.mkdir(parents=True, exist_ok=True)
        fd, candidate = tempfile.mkstemp(dir=home, prefix=f".{KEY_FILE}.")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(Fernet.generate_key())
                handle.flush()
                os.fsync(handle.fileno())
            try:
                os.link(candidate, path)
                _sync_directory(home)
            except FileExistsError:
                pass  # another process won: its key is the one
        finally:
            os.unlink(candidate)
    return _read_key(path)


def _read_key(path: Path) -> bytes:
    from cryptography.fernet import Fernet

    mode = path.stat().st_mode
    if mode & 0o077:
        log.warning("the secret key file is readable by others; chmod 600 it",
                    extra={"path": str(path), "mode": oct(mode & 0o777)})
    key = path.read_bytes().strip()
    try:
        Fernet(key)
    except ValueError as exc:
        raise SecretKeyUnavailable(f"{path} does not hold a Fernet key") from exc
    return key


def _sync_directory(directory: Path) -> None:
    """Make the key file's name durable: a key lost to a power cut makes secrets unreadable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _keys(config: Config | None) -> list[bytes]:
    """The keys, first the one that encrypts; raises :class:`SecretKeyUnavailable`."""
    from cryptography.fernet import Fernet

    if config is None:
        raise SecretKeyUnavailable(_NO_KEY)
    if config.secrets.key:
        keys = [k.strip().encode() for k in config.secrets.key.split(",") if k.strip()]
        try:
            for key in keys:
                Fernet(key)
        except ValueError:  # binascii.Error too; its message never holds the key
            raise SecretKeyUnavailable(_BAD_KEY) from None
        if not keys:
            raise SecretKeyUnavailable(_BAD_KEY)
        return keys
    if config.uses_embedded_database:
        return [home_key(config.home)]
    raise SecretKeyUnavailable(_NO_KEY)


def fernet(config: Config | None) -> MultiFernet:
    """The same keys for the other secrets pagemill stores (webhook signing secrets,
    app/domain/webhooks.py): raises :class:`SecretKeyUnavailable` like :func:`seal`."""
    return _fernet(config)


def _fernet(config: Config | None) -> MultiFernet:
    from cryptography.fernet import Fernet, MultiFernet

    return MultiFernet([Fernet(key) for key in _keys(config)])
