"""Parts of Office Open XML packages that docling leaves out: PowerPoint review comments
(legacy ``ppt/comments/comment*.xml`` and modern ``modernComment_*.xml`` threads), placed
on the slide they belong to."""

from __future__ import annotations

import io
import posixpath
import zipfile
from xml.etree import ElementTree

# Parts bigger than this are not comment lists; reading them would only cost memory.
_MAX_PART_BYTES = 8 * 1024 * 1024
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _read(package: zipfile.ZipFile, name: str) -> ElementTree.Element | None:
    try:
        info = package.getinfo(name)
    except KeyError:
        return None
    if info.file_size > _MAX_PART_BYTES:
        return None
    try:
        return ElementTree.fromstring(package.read(info))
    except ElementTree.ParseError:
        return None


def _relationships(package: zipfile.ZipFile, part: str) -> dict[str, str]:
    """Relationship id -> target part name, for ``part``."""
    folder, name = posixpath.split(part)
    root = _read(package, posixpath.join(folder, "_rels", name + ".rels"))
    if root is None:
        return {}
    return {rel.get("Id", ""): posixpath.normpath(posixpath.join(folder, rel.get("Target", ""))).lstrip("/")
            for rel in root if rel.get("TargetMode") != "External"}


def _text(element: ElementTree.Element) -> str:
    return "".join(node.text or "" for node in element.iter() if _local(node.tag) in ("t", "text")).strip()


def _authors(package: zipfile.ZipFile) -> dict[str, str]:
    """Author id -> "Name (initials)", from the legacy and the modern author lists."""
    authors: dict[str, str] = {}
    for part in ("ppt/commentAuthors.xml", "ppt/authors.xml"):
        root = _read(package, part)
        for author in root if root is not None else []:
            name, initials = author.get("name", "").strip(), author.get("initials", "").strip()
            authors[author.get("id", "")] = f"{name} ({initials})" if initials else name
    return authors


def _line(author: str, when: str | None, body: str) -> str:
    stamp = f", time: {when}" if when else ""
    return f"[author: {author or 'unknown'}{stamp}]: {body}"


def _comments_of(root: ElementTree.Element, authors: dict[str, str]) -> list[str]:
    lines = []
    for comment in root.iter():
        if _local(comment.tag) != "cm":
            continue
        # Legacy comments keep their text in <p:text>; modern ones in a txBody, with replies.
        body = next((_text(c) for c in comment if _local(c.tag) in ("text", "txBody")), "")
        if body:
            lines.append(_line(authors.get(comment.get("authorId", ""), ""),
                               comment.get("dt") or comment.get("created"), body))
        for reply in comment.iter():
            if _local(reply.tag) == "reply":
                text = next((_text(c) for c in reply if _local(c.tag) == "txBody"), "")
                if text:
                    author = authors.get(reply.get("authorId", ""), "")
                    lines.append(_line(author, reply.get("created"), text))
    return lines


def slide_comments(data: bytes) -> dict[int, list[str]]:
    """Slide number (1-based, in presentation order) -> its comments as Markdown lines."""
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return {}
    with package:
        presentation = _read(package, "ppt/presentation.xml")
        if presentation is None:
            return {}
        targets = _relationships(package, "ppt/presentation.xml")
        slides = [targets.get(node.get(_REL, ""), "") for node in presentation.iter()
                  if _local(node.tag) == "sldId"]
        authors = _authors(package)
        out: dict[int, list[str]] = {}
        for number, slide in enumerate(slides, start=1):
            for target in _relationships(package, slide).values():
                if not posixpath.basename(target).lower().startswith(("comment", "moderncomment")):
                    continue
                root = _read(package, target)
                if root is not None:
                    out.setdefault(number, []).extend(_comments_of(root, authors))
        return {n: lines for n, lines in out.items() if lines}
