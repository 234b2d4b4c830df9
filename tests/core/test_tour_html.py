"""The exported tour page: escaped, cleaned, self-contained; and opened offline in a real
headless Chromium (Debian's package) driven over the DevTools protocol on a pipe: it makes no
network request, shows one slide at a time, and keys, clicks and the URL hash move it."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time

import pytest

from inspector.core.formats.tour_html import Slide, clean_svg, tour_html

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")
NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


def _svg(word: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG '
            '1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg width="141mm" '
            'height="79mm" viewBox="0 0 400 225" xmlns="http://www.w3.org/2000/svg" '
            'xmlns:xlink="http://www.w3.org/1999/xlink"><rect x="10" y="10" width="380" '
            f'height="205" fill="#56b4e9"/><text x="40" y="120" font-family="Sans Serif" '
            f'font-size="40">{word}</text></svg>')


def _slides(n: int) -> list:
    return [Slide(title=f"{k + 1} / {n} · Stop {k}", caption=f"Caption {k}",
                  notes=f"notes {k}", svg=_svg(f"block{k}")) for k in range(n)]


def test_one_section_per_slide_and_all_model_text_escaped():
    slides = _slides(3)
    slides[1].caption = "<script>alert(1)</script> & “quotes”"
    slides[2].title = "<img src=x onerror=alert(2)>"
    slides[2].notes = "</section><b>bold</b>"
    page = tour_html("conv <net>", slides, subtitle="Ünïcødé · 3 stops")
    assert page.count('<section class="slide"') == 3
    assert [int(i) for i in re.findall(r'data-index="(\d+)"', page)] == [0, 1, 2]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; “quotes”" in page
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "&lt;/section&gt;&lt;b&gt;bold&lt;/b&gt;" in page
    assert len(re.findall(r"<script\b", page, re.I)) == 1        # ours, and only ours
    assert "<title>conv &lt;net&gt;</title>" in page and "Ünïcødé · 3 stops" in page
    assert '<meta charset="utf-8">' in page and "3 / 3" in page


def test_svg_loses_prologue_scripts_handlers_and_outside_links():
    dirty = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]><!-- hi -->'
             '<svg width="400" height="200" xmlns="http://www.w3.org/2000/svg" '
             'xmlns:xlink="http://www.w3.org/1999/xlink" onload="steal()">'
             '<script>steal()</script><SCRIPT type="x">steal()</SCRIPT><style>body{}</style>'
             '<foreignObject><p>x</p></foreignObject><set attributeName="href" to="x"/>'
             '<image xlink:href="http://evil.example/x.png"/><image href=https://evil.example/>'
             '<a xlink:href="javascript:steal()"><text>link</text></a>'
             '<image href="data:image/png;base64,AAAA"/><use xlink:href="#a"/>'
             '<rect/onmouseover=steal() x="1"/><text onclick=\'go()\'>ok</text>'
             '<script>never closed</svg>')
    svg = clean_svg(dirty)
    for bad in ("steal", "<script", "<SCRIPT", "<style", "foreignObject", "<set", "evil",
                "javascript", "onclick", "onload", "onmouseover", "<?xml", "DOCTYPE", "<!--"):
        assert bad not in svg, bad
    assert svg.startswith('<svg class="graph" width="100%" height="100%" viewBox="0 0 400 200" '
                          'preserveAspectRatio="xMidYMid meet"')
    assert 'href="data:image/png;base64,AAAA"' in svg and 'xlink:href="#a"' in svg
    assert "<text>link</text>" in svg and ">ok</text>" in svg and svg.endswith("</svg>")
    assert clean_svg("<p>not an svg</p>") == ""
    sized = clean_svg('<svg width="1in" height="72pt"><set to="1"/><rect/><set>x</set></svg>')
    assert 'viewBox="0 0 96 96"' in sized and "<rect/>" in sized and "set" not in sized


def test_nothing_in_the_page_points_at_the_network():
    slides = _slides(2)
    slides[0].picture = PNG
    slides[1].bars = [("daisy", 0.87), ("<b>rose</b>", 0.05), ("odd", float("nan"))]
    slides[1].facts = [("learned numbers", "3.5 million"), ("input", "224 × 224")]
    page = tour_html("t", slides)
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert urls <= NAMESPACES, urls
    assert "<link rel=\"stylesheet\"" not in page and "@import" not in page
    assert "default-src 'none'; img-src data:;" in page
    assert "data:image/png;base64,iVBORw0KGgo" in page
    assert "width:87.0%" in page and "87.0%</span>" in page and "&lt;b&gt;rose&lt;/b&gt;" in page
    assert "width:0.0%" in page                                     # NaN is drawn as nothing
    assert "<th>learned numbers</th><td>3.5 million</td>" in page and "224 × 224" in page
    assert "@media print" in page and "page-break-after:always" in page


def test_an_empty_tour_says_so():
    page = tour_html("Nothing", [])
    assert "This tour has no stops" in page and "<section" not in page


# -- a real browser -------------------------------------------------------------------------------
def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class DevTools:
    """Chrome DevTools protocol over --remote-debugging-pipe: the browser reads commands from
    its fd 3 and writes answers and events to its fd 4, each JSON message ended by a NUL."""

    FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-default-apps", "--disable-sync", "--window-size=1280,720")

    def __init__(self, binary: str, profile: str):
        read_end, self._to_browser = os.pipe()
        self._from_browser, write_end = os.pipe()
        # The browser's ends are lifted to fds >= 10 so that placing them at 3 and 4 can never
        # overwrite one with the other; a two-line Python trampoline places them and execs the
        # browser (same pid), which is thread-safe where a preexec_fn is not.
        commands, answers = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
                             for fd in (read_end, write_end))
        os.close(read_end)
        os.close(write_end)
        place = (f"import os, sys; os.dup2({commands}, 3); os.dup2({answers}, 4); "
                 f"os.close({commands}); os.close({answers}); os.execv(sys.argv[1], sys.argv[1:])")
        self.log = open(profile + ".log", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", place, binary, *self.FLAGS,
             f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            pass_fds=(commands, answers), start_new_session=True)  # own group: killed whole
        os.close(commands)
        os.close(answers)
        self._buffer = b""
        self._next = 0
        self.events: list = []

    def close(self) -> None:
        """Ask the browser to quit, then kill its whole process group regardless."""
        # gone already, or hung: the group is killed below either way
        with contextlib.suppress(OSError, RuntimeError, TimeoutError, subprocess.TimeoutExpired):
            self.call("Browser.close", timeout=3)
            self.proc.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.log.close()

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the browser did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise RuntimeError(f"the browser closed its pipe ({self.proc.poll()})")
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method: str, session: str | None = None, timeout: float = 30.0,
             **params) -> dict:
        """Send one command and wait for its answer; events that arrive meanwhile are kept."""
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read(deadline)
            if answer.get("id") != self._next:
                self.events.append(answer)
            elif "error" in answer:
                raise RuntimeError(f"{method}: {answer['error']}")
            else:
                return answer.get("result", {})

    def wait_event(self, method: str, timeout: float = 30.0) -> dict:
        """The first event called `method` not yet waited for (kept in `events` too)."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for event in self.events[seen:]:
                seen += 1
                if event.get("method") == method and not event.get("waited"):
                    event["waited"] = True
                    return event
            self.events.append(self._read(deadline))


def open_page(browser: DevTools, url: str) -> str:
    """A new tab with network events on, `url` loaded; its session id."""
    target = browser.call("Target.createTarget", url="about:blank")["targetId"]
    session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    browser.call("Network.enable", session)
    browser.call("Page.enable", session)
    browser.call("Page.navigate", session, url=url)
    browser.wait_event("Page.loadEventFired")
    return session


def test_the_page_works_offline_in_headless_chromium(tmp_path):
    binary = _browser()
    if binary is None:
        pytest.skip("no Chromium found: apt-get install chromium")
    page = tmp_path / "tour.html"
    page.write_text(tour_html("A tour", _slides(4), subtitle="4 stops"), encoding="utf-8")
    browser = DevTools(binary, str(tmp_path / "profile"))
    try:
        session = open_page(browser, page.as_uri())

        def js(expression: str):
            answer = browser.call("Runtime.evaluate", session, expression=expression,
                                  returnByValue=True, awaitPromise=True)
            assert "exceptionDetails" not in answer, answer
            return answer["result"].get("value")

        def key(name: str, code: int, text: str = ""):
            for kind in ("keyDown", "keyUp"):
                browser.call("Input.dispatchKeyEvent", session, type=kind, key=name,
                             code=name, windowsVirtualKeyCode=code, text=text)

        def click(x: int):
            for kind in ("mousePressed", "mouseReleased"):
                browser.call("Input.dispatchMouseEvent", session, type=kind, x=x, y=360,
                             button="left", clickCount=1)

        def state() -> tuple:
            return js("[document.body.dataset.current, location.hash, Array.from("
                      "document.querySelectorAll('section.slide')).filter(s => "
                      "getComputedStyle(s).display !== 'none').map(s => s.dataset.index)]")

        assert js("document.querySelectorAll('section.slide').length") == 4
        assert js("document.body.dataset.current") == "0"
        assert state() == ["0", "#1", ["0"]]
        key("ArrowRight", 39)
        key("ArrowRight", 39)
        assert state() == ["2", "#3", ["2"]]
        key("ArrowLeft", 37)
        assert state() == ["1", "#2", ["1"]]
        key("End", 35)
        assert state() == ["3", "#4", ["3"]]
        key("Home", 36)
        key(" ", 32, " ")                                    # Space: next
        key("PageDown", 34)
        key("ArrowUp", 38)
        assert state() == ["1", "#2", ["1"]]
        click(1100)                                          # right half: next
        click(100)
        click(100)                                           # left half: previous
        assert state() == ["0", "#1", ["0"]]

        notes = "getComputedStyle(document.querySelector('section.current .notes')).display"
        assert js(notes) == "none"
        key("n", 78, "n")
        assert js(notes) == "block"
        black = "getComputedStyle(document.getElementById('black')).display"
        key("b", 66, "b")
        assert js(black) == "block"
        key("ArrowRight", 39)                                # first press only lifts the black
        assert js(black) == "none" and state()[0] == "0"

        # the picture is real text, scaled up to its stage (drawn 400 wide in the SVG)
        assert js("document.querySelector('section.current svg text').textContent") == "block0"
        assert js("document.querySelector('section.current svg').getBoundingClientRect()"
                  ".width") > 600
        caption = "parseFloat(getComputedStyle(document.querySelector('section.current "
        assert js(caption + ".caption')).fontSize)") >= 28

        # a reload keeps the place: the hash says where
        key("End", 35)
        browser.call("Page.reload", session)
        browser.wait_event("Page.loadEventFired")
        assert state() == ["3", "#4", ["3"]]

        sent = [e["params"]["request"]["url"] for e in browser.events
                if e.get("method") == "Network.requestWillBeSent"]
        assert sent and sent[0].startswith("file://")        # the recorder does record
        assert [u for u in sent if not u.startswith(("file://", "data:"))] == []

        # and the CSP would refuse a request even if one slipped in
        refused = js("new Promise(done => {document.addEventListener("
                     "'securitypolicyviolation', e => done(e.violatedDirective));"
                     "const img = new Image(); img.src = 'http://127.0.0.1:9/x.png';"
                     "setTimeout(() => done('allowed'), 5000);})")
        assert refused == "img-src"
    finally:
        browser.close()
