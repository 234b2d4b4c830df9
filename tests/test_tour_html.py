"""The exported tour page: escaped, cleaned, self-contained; and opened offline in a real
headless Chromium (Debian's package) driven over the DevTools protocol on a pipe: it makes no
network request, has one slide per stop, and the arrow keys move between them."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import time

import pytest

from inspector.core.formats.tour_html import Slide, clean_svg, tour_html

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def _svg(word: str) -> str:
    return ('<?xml version="1.0"?><!DOCTYPE svg><svg width="400" height="225" '
            'viewBox="0 0 400 225" xmlns="http://www.w3.org/2000/svg" '
            'xmlns:xlink="http://www.w3.org/1999/xlink"><rect x="10" y="10" width="380" '
            f'height="205" fill="#56b4e9"/><text x="40" y="120" font-size="40">{word}</text>'
            "</svg>")


def _slides(n: int) -> list:
    return [Slide(title=f"Stop {k}", caption=f"Caption {k}", notes=f"notes {k}",
                  svg=_svg(f"block{k}")) for k in range(n)]


def test_page_has_one_section_per_slide_and_escapes_model_text():
    slides = _slides(3)
    slides[1].caption = "<script>alert(1)</script> & “quotes”"
    slides[2].title = "<img src=x onerror=alert(2)>"
    page = tour_html("conv <net>", slides)
    assert page.count('<section class="slide"') == 3
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; “quotes”" in page
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert page.count("<script>") == 1 and "<title>conv &lt;net&gt;</title>" in page


def test_svg_is_cleaned_of_scripts_handlers_and_outside_links():
    dirty = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/'
             'xlink" onload="steal()"><script>steal()</script><foreignObject><p>x</p>'
             '</foreignObject><image xlink:href="http://evil.example/x.png"/>'
             '<image href="data:image/png;base64,AAAA"/><use href="#a"/>'
             '<text onclick=\'go()\'>ok</text></svg>')
    svg = clean_svg(dirty)
    for bad in ("steal", "<script", "foreignObject", "evil.example", "onclick", "onload"):
        assert bad not in svg
    assert 'href="data:image/png;base64,AAAA"' in svg and 'href="#a"' in svg
    assert "<text" in svg and ">ok</text>" in svg


def test_nothing_in_the_page_points_at_the_network():
    slides = _slides(2)
    slides[0].picture = PNG
    slides[1].bars = [("daisy", 0.87), ("<b>rose</b>", 0.05)]
    slides[1].facts = [("learned numbers", "3.5 million")]
    page = tour_html("t", slides)
    urls = re.findall(r"https?://[^\s\"'<>)]+", page)
    assert set(urls) <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}, urls
    assert "data:image/png;base64," in page and "default-src 'none'" in page
    assert "width:87.0%" in page and "&lt;b&gt;rose&lt;/b&gt;" in page
    assert "<th>learned numbers</th><td>3.5 million</td>" in page


def test_an_empty_tour_says_so():
    assert "This tour has no stops" in tour_html("t", [])


# -- a real browser -------------------------------------------------------------------------------
def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class DevTools:
    """Chrome DevTools protocol over --remote-debugging-pipe: commands are written to the
    browser's fd 3, answers and events read from its fd 4, each JSON ended by a NUL byte."""

    def __init__(self, binary: str, profile: str):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        pid_fds = {3: to_browser_r, 4: from_browser_w}

        def wire():  # runs in the child: the pipes become its fds 3 and 4
            for target, fd in pid_fds.items():
                os.dup2(fd, target)
        self.proc = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-default-apps", "--disable-sync", "--window-size=1280,720",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # close_fds runs after preexec_fn: 3 and 4 must be kept open explicitly
            pass_fds=(3, 4, to_browser_r, from_browser_w), preexec_fn=wire)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.events: list = []

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the browser did not answer")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise RuntimeError("the browser closed its pipe")
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method: str, session: str | None = None, timeout: float = 30.0,
             **params) -> dict:
        self._next += 1
        ident = self._next
        message = {"id": ident, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read(deadline)
            if answer.get("id") == ident:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_event(self, method: str, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        for k, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(k)
        while True:
            event = self._read(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)


def test_the_page_works_offline_in_headless_chromium(tmp_path):
    binary = _browser()
    if binary is None:
        pytest.skip("no Chromium: apt-get install chromium (packaging/setup.sh does)")
    page = tmp_path / "tour.html"
    page.write_text(tour_html("A tour", _slides(4)), encoding="utf-8")
    browser = DevTools(binary, str(tmp_path / "profile"))
    try:
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        session = browser.call("Target.attachToTarget", targetId=target,
                               flatten=True)["sessionId"]
        browser.call("Network.enable", session)
        browser.call("Page.enable", session)
        browser.call("Page.navigate", session, url=page.as_uri())
        browser.wait_event("Page.loadEventFired")

        def js(expression: str):
            result = browser.call("Runtime.evaluate", session, expression=expression,
                                  returnByValue=True)
            return result["result"].get("value")

        def key(name: str, code: int):
            for kind in ("keyDown", "keyUp"):
                browser.call("Input.dispatchKeyEvent", session, type=kind, key=name,
                             code=name, windowsVirtualKeyCode=code)

        assert js("document.querySelectorAll('section.slide').length") == 4
        assert js("document.body.dataset.current") == "0"
        visible = ("Array.from(document.querySelectorAll('section.slide')).filter("
                   "s => getComputedStyle(s).display !== 'none').map(s => s.dataset.index)")
        assert js(visible) == ["0"]
        key("ArrowRight", 39)
        key("ArrowRight", 39)
        assert js("document.body.dataset.current") == "2" and js(visible) == ["2"]
        key("ArrowLeft", 37)
        assert js("document.body.dataset.current") == "1"
        key("End", 35)
        assert js("document.body.dataset.current") == "3" and js("location.hash") == "#4"
        assert js("document.querySelector('section.current svg text').textContent") == \
            "block3"
        requests = [e["params"]["request"]["url"] for e in browser.events
                    if e.get("method") == "Network.requestWillBeSent"]
        assert all(u.startswith(("file://", "data:")) for u in requests), requests
    finally:
        browser.close()
