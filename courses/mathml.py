"""Turn TeX into MathML on the server, and Markdown with TeX math into safe HTML.

Math has one path: pure code emits TeX; this module (through the template filters in
``courses.templatetags.mathml``) is the only place it becomes MathML. No JavaScript, no CDN:
the browser typesets MathML with the math font served from ``static/fonts/``.
"""

import re
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import lru_cache
from html import escape
from urllib.parse import urlsplit

import latex2mathml.converter
from markdown import Extension, Markdown
from markdown.inlinepatterns import InlineProcessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

# A display formula: `$$...$$` on its own line(s).
_DISPLAY_OPEN = re.compile(r"^\s*\$\$")
# An inline formula: `$...$` on one line, not `$$`, not an escaped `\$`.
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)((?:\\.|[^$\\\n])+?)\$(?!\$)")
_UNKNOWN_COMMAND = re.compile(r"<mi>(\\[A-Za-z]+)</mi>")
_SAFE_URL_SCHEMES = {"", "http", "https", "mailto"}
_CHARACTER_REFERENCE = re.compile(r"&amp;(#x[0-9A-Fa-f]+;|#[0-9]+;)")
# Commands that would put a link, a style, a class, an id or data attributes into the page
# (latex2mathml turns `\href`, `\style`, `\class` into attributes; the others are MathJax's).
# A command is preceded by an even number of backslashes: `\\class` is a line break, then text.
REFUSED_COMMANDS = (
    "href",
    "url",
    "style",
    "class",
    "cssId",
    "htmlClass",
    "htmlId",
    "htmlStyle",
    "htmlData",
    "data",
)
_REFUSED = re.compile(r"(?<!\\)(?:\\\\)*\\(" + "|".join(REFUSED_COMMANDS) + r")(?![A-Za-z])")
# The only MathML attributes that reach a page: layout, never links, styles, classes or ids.
ALLOWED_ATTRIBUTES = frozenset(
    {
        "xmlns",
        "display",
        "displaystyle",
        "scriptlevel",
        "mathvariant",
        "stretchy",
        "fence",
        "form",
        "separator",
        "accent",
        "accentunder",
        "movablelimits",
        "largeop",
        "symmetric",
        "lspace",
        "rspace",
        "minsize",
        "maxsize",
        "width",
        "height",
        "depth",
        "linethickness",
        "linebreak",
        "notation",
        "columnalign",
        "rowalign",
        "columnlines",
        "rowlines",
        "columnspacing",
        "rowspacing",
        "frame",
    }
)


class MathError(ValueError):
    """TeX that cannot be converted to MathML; ``str()`` says what was wrong."""


# Pure and asked again for the same formulas (a Verdict's answer, each preview as it is typed):
# converted once per process. An error is not cached; it is raised again on the next call.
@lru_cache(maxsize=2048)
def tex_to_mathml(tex: str, *, display: bool = False) -> str:
    """Convert a TeX formula to a ``<math>`` element; raise MathError for malformed TeX.

    A command latex2mathml does not know (``\\foo``) is an error rather than printed as text,
    and so is one of ``REFUSED_COMMANDS``. Attributes outside ``ALLOWED_ATTRIBUTES`` are dropped.
    """
    refused = _REFUSED.search(tex)
    if refused:
        raise MathError(
            f"\\{refused.group(1)} is not allowed in {tex.strip()!r}: math may not add links, "
            "styles, classes, ids or data to the page"
        )
    try:
        element = latex2mathml.converter.convert_to_element(
            tex.strip(), display="block" if display else "inline"
        )
    except Exception as exc:  # latex2mathml raises bare Exception subclasses.
        name = type(exc).__name__
        detail = str(exc) or re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()
        raise MathError(f"cannot read the TeX {tex.strip()!r}: {detail}") from exc
    for node in element.iter():
        for name in [name for name in node.attrib if name not in ALLOWED_ATTRIBUTES]:
            del node.attrib[name]
    # latex2mathml's own serialiser unescapes everything, so `\text{<b>}` would come out as
    # markup. Serialise escaped instead and restore only the character references it wrote.
    mathml = _CHARACTER_REFERENCE.sub(r"&\1", ET.tostring(element, encoding="unicode"))
    unknown = _UNKNOWN_COMMAND.search(mathml)
    if unknown:
        raise MathError(f"unknown TeX command {unknown.group(1)} in {tex.strip()!r}")
    return mathml


def _math_or_error(tex: str, *, display: bool) -> str:
    try:
        return tex_to_mathml(tex, display=display)
    except MathError:
        # Show the source rather than break the page; the loader refuses such TeX in content.
        return f'<code class="tex-error">{escape(tex)}</code>'


def iter_tex(text: str) -> Iterator[tuple[int, str, bool]]:
    """Yield ``(line number, tex, display)`` for every formula in Markdown text.

    Code (fenced blocks and backtick spans) is skipped, as the renderer skips it.
    """
    lines = text.split("\n")
    for index, tex, code in _segments(lines, strict=True):
        if tex is not None:
            yield index + 1, tex.strip(), True
        elif not code:
            without_code = re.sub(r"`[^`]*`", "", lines[index])
            for match in _INLINE.finditer(without_code):
                yield index + 1, match.group(1), False


def _segments(lines: list[str], *, strict: bool) -> Iterator[tuple[int, str | None, bool]]:
    """Yield ``(index, display TeX or None, code)`` over Markdown lines, as the renderer reads them.

    A display formula outside fenced code comes once, at its first line, with its TeX; every
    other line comes alone with None, and ``code`` says whether it is a fence or inside one. An
    unclosed display formula raises ``MathError`` when ``strict``, else stays a plain line.
    """
    index = 0
    in_fence = False
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            yield index, None, True
            index += 1
            continue
        if not in_fence and _DISPLAY_OPEN.match(line):
            try:
                tex, after = _collect_display(lines, index)
            except MathError:
                if strict:
                    raise
            else:
                yield index, tex, False
                index = after
                continue
        yield index, None, in_fence
        index += 1


def _collect_display(lines: list[str], index: int) -> tuple[str, int]:
    """Return the TeX of the display formula starting at ``lines[index]`` and the next index."""
    first = lines[index].strip()[2:]
    if first.endswith("$$"):
        return first[:-2], index + 1
    parts = [first]
    index += 1
    while index < len(lines):
        stripped = lines[index].strip()
        if stripped.endswith("$$"):
            parts.append(stripped[:-2])
            return "\n".join(parts), index + 1
        parts.append(lines[index])
        index += 1
    raise MathError("a display formula opened with $$ is never closed")


class _DisplayMathPreprocessor(Preprocessor):
    """Replace each `$$...$$` block with a stashed MathML block."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        for index, tex, _code in _segments(lines, strict=False):
            if tex is None:
                out.append(lines[index])
            else:
                html = f'<div class="math-display">{_math_or_error(tex, display=True)}</div>'
                out.extend(["", self.md.htmlStash.store(html), ""])
        return out


class _InlineMathProcessor(InlineProcessor):
    """Replace `$...$` with stashed inline MathML, before emphasis can see its underscores."""

    def handleMatch(self, m: re.Match, data: str):
        return (
            self.md.htmlStash.store(_math_or_error(m.group(1), display=False)),
            m.start(0),
            m.end(0),
        )


class _SafeLinks(Treeprocessor):
    """Drop links and images whose URL scheme could run script (``javascript:`` and the like)."""

    def run(self, root: ET.Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is not None and urlsplit(value.strip()).scheme.lower() not in (
                    _SAFE_URL_SCHEMES
                ):
                    element.set(attribute, "#")


class _AlignmentClasses(Treeprocessor):
    """Turn the tables extension's ``style="text-align: right;"`` into ``class="align-right"``.

    The Content-Security-Policy allows no inline style (``style-src 'self'``), so a browser
    drops the attribute and the column loses its alignment; a class is styled by the site's
    stylesheet instead. No other element of rendered Markdown carries a ``style``.
    """

    def run(self, root: ET.Element) -> None:
        for element in root.iter():
            if element.tag not in ("th", "td") or "style" not in element.attrib:
                continue
            style = element.attrib.pop("style")
            match = _TEXT_ALIGN.fullmatch(style.strip())
            if match is not None:
                classes = [*element.get("class", "").split(), f"align-{match.group(1)}"]
                element.set("class", " ".join(classes))


_TEXT_ALIGN = re.compile(r"text-align:\s*(left|right|center);?")


class _SafeMathExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # Raw HTML in the source is escaped, not passed through.
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.preprocessors.register(_DisplayMathPreprocessor(md), "display_math", 27)
        # Above backticks (190) would break code spans; above escapes (180) keeps TeX's `\\`.
        md.inlinePatterns.register(_InlineMathProcessor(_INLINE.pattern, md), "inline_math", 185)
        md.treeprocessors.register(_SafeLinks(md), "safe_links", 0)
        md.treeprocessors.register(_AlignmentClasses(md), "alignment_classes", 1)


_local = threading.local()


def _markdown() -> Markdown:
    """Return this thread's Markdown converter (building one costs more than a short render)."""
    md = getattr(_local, "markdown", None)
    if md is None:
        md = Markdown(extensions=[_SafeMathExtension(), "tables", "fenced_code", "sane_lists"])
        _local.markdown = md
    return md


# Short texts (idea summaries, statements, explanations) come back on every page view; the
# rendering is a pure function of the text, so remember the recent ones.
_CACHED_TEXT_LENGTH = 4000


def render_markdown(text: str) -> str:
    """Render Markdown with `$...$` and `$$...$$` TeX to HTML with MathML; escape raw HTML."""
    if len(text) <= _CACHED_TEXT_LENGTH:
        return _render_cached(text)
    return _render(text)


@lru_cache(maxsize=2048)
def _render_cached(text: str) -> str:
    return _render(text)


def _render(text: str) -> str:
    md = _markdown()
    try:
        return md.convert(text)
    finally:
        md.reset()
