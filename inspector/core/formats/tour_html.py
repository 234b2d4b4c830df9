"""A tour as one self-contained HTML page: a slide per stop with its picture as inline SVG
(text stays text), images as data URIs, captions, speaker notes, keyboard and click navigation,
and a Content-Security-Policy that forbids every network request. Model text (node names,
captions) is untrusted: all of it is escaped, and the SVG is cleaned before it is inlined."""

from __future__ import annotations

import base64
import html
import math
import re
from dataclasses import dataclass, field

CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'")
FONTS = 'system-ui, "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif'


@dataclass
class Slide:
    title: str                     # "3 / 12 · Mixed_5b"
    caption: str                   # one or two sentences, shown large under the picture
    notes: str = ""                # speaker notes, shown when the presenter presses N
    svg: str = ""                  # a complete SVG document (Qt's QSvgGenerator output)
    picture: bytes = b""           # PNG shown beside the graph (what the model sees)
    bars: list = field(default_factory=list)    # [(label, probability 0..1)]
    facts: list = field(default_factory=list)   # [(label, value)]


# -- the SVG, cleaned -----------------------------------------------------------------------------
_ATTRS = r"""(?:"[^"]*"|'[^']*'|[^'">])*"""        # a tag's inside, quotes may hold '>'
_PROLOGUE = re.compile(r"<\?.*?\?>|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>|<!--.*?-->", re.S | re.I)
_BANNED = "script|style|foreignObject|iframe|object|embed|set|animate\\w*"
_BANNED_PAIR = re.compile(rf"<\s*({_BANNED})\b{_ATTRS}(?<!/)>.*?<\s*/\s*\1\s*>", re.S | re.I)
_BANNED_TAG = re.compile(rf"<\s*/?\s*(?:{_BANNED})\b{_ATTRS}>", re.I)
_TAG = re.compile(rf"<[A-Za-z]{_ATTRS}>")
_VALUE = r"""\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)"""
_HANDLER = re.compile(rf"""(?<=[\s/"'])on[\w:.-]*{_VALUE}""", re.I)
_LINK = re.compile(rf"""(?<=[\s/"'])(?:xlink:)?(?:href|src){_VALUE}""", re.I)
_ROOT = re.compile(rf"<svg\b({_ATTRS})>", re.I)
_UNIT_PX = {"": 1, "px": 1, "pt": 4 / 3, "pc": 16, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96}
_SIZE = re.compile(rf"""(?<=[\s"'])(width|height|viewBox|preserveAspectRatio){_VALUE}""", re.I)


def _safe_link(m: re.Match) -> str:
    value = m.group(1).strip("\"'").lstrip()
    return m.group(0) if value.startswith(("data:image/", "#")) else ""


def _clean_tag(m: re.Match) -> str:
    tag = _LINK.sub(_safe_link, _HANDLER.sub("", m.group(0)))
    if tag.endswith("/>") and not m.group(0).endswith("/>"):
        tag = tag[:-2].rstrip("/ ") + ">"         # '<g/onload=x>' must not become '<g/>'
    return tag


def _px(length: str) -> float | None:
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(px|pt|pc|mm|cm|in)?\s*", length, re.I)
    return float(m[1]) * _UNIT_PX[(m[2] or "").lower()] if m else None


def _fit_root(m: re.Match) -> str:
    """The root <svg> fills its stage and keeps its proportions (a viewBox is made if none)."""
    attrs = {k.lower(): v.strip("\"'") for k, v in _SIZE.findall(m.group(1))}
    rest = _SIZE.sub("", m.group(1)).strip(" \t\r\n/")
    box = attrs.get("viewbox", "")
    w, h = _px(attrs.get("width", "")), _px(attrs.get("height", ""))
    if not box and w and h:
        box = f"0 0 {w:g} {h:g}"
    box = f' viewBox="{html.escape(box)}"' if box else ""
    return (f'<svg class="graph" width="100%" height="100%"{box} '
            f'preserveAspectRatio="xMidYMid meet" {rest}>')


def clean_svg(svg: str) -> str:
    """The SVG ready to inline: no prologue, comments, scripts, styles, foreign content or
    animation, no on* handlers, no links but embedded images and in-document references."""
    svg = _PROLOGUE.sub("", svg)
    start, end = svg.lower().find("<svg"), svg.lower().rfind("</svg")
    if start < 0 or end < start:
        return ""                                  # not an SVG document: show nothing
    svg = svg[start:end] + "</svg>"
    svg = _BANNED_TAG.sub("", _BANNED_PAIR.sub("", svg))
    svg = _TAG.sub(_clean_tag, svg)
    return _ROOT.sub(_fit_root, svg, count=1)


# -- the page -------------------------------------------------------------------------------------
def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _share(p) -> float:
    try:
        p = float(p)
    except (TypeError, ValueError):
        return 0.0
    return min(1.0, max(0.0, p)) if math.isfinite(p) else 0.0


def _side(slide: Slide) -> str:
    """The panel beside the graph: the picture, the answer's bars, the facts."""
    parts = []
    if slide.picture:
        data = base64.b64encode(bytes(slide.picture)).decode("ascii")
        parts.append('<figure><img alt="What the model sees" '
                     f'src="data:image/png;base64,{data}"><figcaption>What the model sees'
                     '</figcaption></figure>')
    if slide.bars:
        rows = "".join(
            f'<div class="bar"><span class="label" title="{_e(label)}">{_e(label)}</span>'
            f'<span class="track"><span class="fill" style="width:{pct}"></span></span>'
            f'<span class="pct">{pct}</span></div>'
            for label, pct in ((label, f"{_share(p) * 100:.1f}%") for label, p in slide.bars))
        parts.append(f'<div class="bars">{rows}</div>')
    if slide.facts:
        rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in slide.facts)
        parts.append(f'<table class="facts">{rows}</table>')
    return f'<aside>{"".join(parts)}</aside>' if parts else ""


def _section(k: int, n: int, slide: Slide, footer: str) -> str:
    graph = clean_svg(slide.svg) if slide.svg else ""
    side = _side(slide)
    stage = f'<div class="stage">{graph}</div>' if graph else ""
    body = f"<main>{stage}{side}</main>" if stage or side else ""
    lead = "" if body else " lead"
    notes = (f'<div class="notes"><b>Notes</b><p>{_e(slide.notes)}</p></div>'
             if slide.notes else "")
    return (f'<section class="slide" data-index="{k}" aria-label="Slide {k + 1} of {n}">'
            f"<header><h2>{_e(slide.title)}</h2></header>{body}"
            f'<p class="caption{lead}">{_e(slide.caption)}</p>{notes}'
            f'<footer><span>{footer}</span><span class="count">{k + 1} / {n}</span></footer>'
            "</section>")


STYLE = """
*{box-sizing:border-box}
html,body{margin:0;height:100%;background:#fff;color:#1b1f27;font-family:%FONTS%}
body{overflow:hidden;-webkit-print-color-adjust:exact;print-color-adjust:exact}
.slide{display:none;height:100vh;flex-direction:column}
.slide.current{display:flex}
header{flex:none;background:#141a26;color:#fff;padding:0 3vw;height:9vh;min-height:48px;
display:flex;align-items:center;border-bottom:4px solid #e69f00}
header h2{margin:0;font-size:clamp(20px,3.4vh,42px);font-weight:650;white-space:nowrap;
overflow:hidden;text-overflow:ellipsis}
main{flex:1;min-height:0;display:flex;gap:3vw;padding:3vh 3vw 1vh}
.stage{flex:1;min-width:0;min-height:0;display:flex}
svg.graph{width:100%;height:100%;display:block}
svg.graph [font-family="Sans Serif"]{font-family:%FONTS%}
aside{flex:none;width:min(34vw,580px);overflow:auto;display:flex;flex-direction:column;
gap:2.5vh;justify-content:safe center}
figure{margin:0}
figure img{display:block;width:100%;max-height:34vh;object-fit:contain;border-radius:10px;
image-rendering:pixelated}
figcaption{color:#5a6372;font-size:clamp(16px,2.1vh,24px);margin-top:.8vh}
.bar{display:grid;grid-template-columns:minmax(0,1.1fr) 1.4fr 4.2em;align-items:center;
gap:1vw;font-size:clamp(18px,2.5vh,30px);margin:1.2vh 0}
.bar .label{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.bar .track{height:1.6vh;min-height:10px;background:#e3e8f0;border-radius:99px}
.bar .fill{display:block;height:100%;background:#0072b2;border-radius:99px}
.bar:first-child .fill{background:#e69f00}
.bar .pct{text-align:right;font-variant-numeric:tabular-nums;color:#3b4352}
table.facts{border-collapse:collapse;width:100%;font-size:clamp(18px,2.4vh,28px)}
.facts th,.facts td{padding:1.1vh .6vw;border-bottom:1px solid #e3e8f0;vertical-align:top}
.facts th{text-align:left;font-weight:500;color:#5a6372}
.facts td{text-align:right;font-weight:600;font-variant-numeric:tabular-nums}
.caption{flex:none;margin:0;padding:2vh 3vw 2.5vh;font-size:clamp(28px,4vh,52px);
line-height:1.25;max-width:75em}
.caption.lead{flex:1;display:flex;align-items:center;font-size:clamp(34px,6vh,72px)}
.notes{display:none;flex:none;background:#fff6dc;border-top:2px solid #e69f00;
padding:1.2vh 3vw;font-size:clamp(16px,2.2vh,26px)}
.notes p{margin:.4vh 0 0;white-space:pre-wrap}
body.notes-on .notes{display:block}
footer{flex:none;display:flex;justify-content:space-between;padding:0 3vw 2.2vh;
color:#7a8392;font-size:clamp(14px,1.9vh,22px)}
.count{font-variant-numeric:tabular-nums}
#progress{position:fixed;left:0;bottom:0;height:5px;width:0;background:#e69f00;
transition:width .25s}
#black{display:none;position:fixed;inset:0;background:#000;z-index:10}
body.black #black{display:block}
.empty{height:100vh;display:flex;flex-direction:column;align-items:center;
justify-content:center;font-size:32px;color:#5a6372}
@page{size:13.333in 7.5in;margin:0}
@media print{body{overflow:visible}main,aside{overflow:hidden;contain:paint}
.slide{display:flex!important;height:100vh;page-break-after:always;break-after:page}
.slide:last-of-type{page-break-after:auto;break-after:auto}
.notes,#progress,#black{display:none!important}}
""".replace("%FONTS%", FONTS)

SCRIPT = """(function(){
var body=document.body,slides=document.querySelectorAll('section.slide'),n=slides.length,cur=0;
function go(i){if(!n)return;cur=Math.max(0,Math.min(n-1,i));
for(var k=0;k<n;k++)slides[k].classList.toggle('current',k===cur);
body.dataset.current=String(cur);
document.getElementById('progress').style.width=(100*(cur+1)/n)+'%';
if(location.hash!=='#'+(cur+1)){try{history.replaceState(null,'','#'+(cur+1));}
catch(e){location.replace('#'+(cur+1));}}}
function step(d){if(body.classList.contains('black'))body.classList.remove('black');
else go(cur+d);}
function fromHash(){var h=parseInt(location.hash.slice(1),10);go(isNaN(h)?0:h-1);}
document.addEventListener('keydown',function(e){if(e.ctrlKey||e.altKey||e.metaKey)return;
var k=e.key;
if(k==='ArrowRight'||k==='PageDown'||k===' '||k==='Spacebar'||k==='ArrowDown')step(1);
else if(k==='ArrowLeft'||k==='PageUp'||k==='ArrowUp')step(-1);
else if(k==='Home')go(0);else if(k==='End')go(n-1);
else if(k==='b'||k==='B'||k==='.')body.classList.toggle('black');
else if(k==='n'||k==='N')body.classList.toggle('notes-on');
else return;e.preventDefault();});
document.addEventListener('click',function(e){
if(String(window.getSelection()||''))return;
step(e.clientX>=window.innerWidth/2?1:-1);});
window.addEventListener('hashchange',fromHash);fromHash();})();"""


def tour_html(title: str, slides: list[Slide], subtitle: str = "") -> str:
    """One self-contained HTML page: every slide, no network request of any kind."""
    footer = _e(title) + (f" · {_e(subtitle)}" if subtitle else "")
    body = "".join(_section(k, len(slides), s, footer) for k, s in enumerate(slides))
    if not body:
        body = f'<div class="empty"><p>This tour has no stops.</p><p>{footer}</p></div>'
    about = f'<meta name="description" content="{_e(subtitle)}">' if subtitle else ""
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<link rel="icon" href="data:,">{about}<title>{_e(title)}</title>'
            f'<style>{STYLE}</style></head><body data-current="0">{body}'
            f'<div id="progress"></div><div id="black"></div>'
            f"<script>{SCRIPT}</script></body></html>\n")
