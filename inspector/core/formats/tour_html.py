"""A tour as one self-contained HTML page: each stop a slide with its picture as inline SVG
(vector, text as text), images as data URIs, captions and speaker notes, keyboard and click
navigation, and a Content-Security-Policy that forbids every network request. Model text
(node names, captions) is untrusted: all of it is escaped, and the SVG is cleaned."""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field

CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'")


@dataclass
class Slide:
    title: str
    caption: str
    notes: str = ""
    svg: str = ""                  # a complete SVG document (Qt's QSvgGenerator output)
    picture: bytes = b""           # PNG shown beside the graph (what the model sees)
    bars: list = field(default_factory=list)    # [(label, probability 0..1)]
    facts: list = field(default_factory=list)   # [(label, value)]


_PROLOGUE = re.compile(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->", re.S | re.I)
_SCRIPT = re.compile(r"<\s*(script|foreignObject)\b.*?(</\s*\1\s*>|/>)", re.S | re.I)
_HANDLER = re.compile(r"\s+on[a-z]+\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.I)
_LINK = re.compile(r"(\s(?:xlink:)?href\s*=\s*)(\"[^\"]*\"|'[^']*')", re.I)


def clean_svg(svg: str) -> str:
    """The SVG without prologue, scripts, foreign objects, event handlers or links other
    than embedded images and in-document references; sized to its slide."""
    svg = _PROLOGUE.sub("", svg)
    svg = _SCRIPT.sub("", svg)
    svg = _HANDLER.sub("", svg)

    def link(m):
        value = m.group(2)[1:-1].strip()
        return m.group(0) if value.startswith(("data:image/", "#")) else ""
    svg = _LINK.sub(link, svg)
    svg = re.sub(r"<svg\b([^>]*?)\swidth=\"[^\"]*\"", r"<svg\1", svg, count=1)
    svg = re.sub(r"<svg\b([^>]*?)\sheight=\"[^\"]*\"", r"<svg\1", svg, count=1)
    return re.sub(r"<svg\b", '<svg class="graph" preserveAspectRatio="xMidYMid meet"', svg,
                  count=1).strip()


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _side(slide: Slide) -> str:
    parts = []
    if slide.picture:
        data = base64.b64encode(slide.picture).decode("ascii")
        parts.append(f'<h3>What the model sees</h3><img alt="what the model sees" '
                     f'src="data:image/png;base64,{data}">')
    if slide.bars:
        rows = "".join(
            f'<div class="bar"><span class="label">{_e(label)}</span>'
            f'<span class="pct">{max(0.0, min(1.0, float(p))) * 100:.1f} %</span>'
            f'<span class="track"><span class="fill" style="width:'
            f'{max(0.0, min(1.0, float(p))) * 100:.1f}%"></span></span></div>'
            for label, p in slide.bars)
        parts.append(f"<h3>The model's answer</h3>{rows}")
    if slide.facts:
        rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in slide.facts)
        parts.append(f"<h3>In numbers</h3><table>{rows}</table>")
    return f'<aside>{"".join(parts)}</aside>' if parts else ""


STYLE = """
*{box-sizing:border-box}html,body{margin:0;height:100%;background:#fff;color:#1d1d1d;
font-family:system-ui,"DejaVu Sans","Segoe UI",Helvetica,Arial,sans-serif}
body{overflow:hidden}
.slide{display:none;height:100vh;flex-direction:column}
.slide.current{display:flex}
header{background:#121826;color:#fff;display:flex;align-items:center;
justify-content:space-between;padding:0 2.2vw;height:9vh;min-height:48px;
border-bottom:.45vh solid #e69f00}
header h2{margin:0;font-size:clamp(20px,3.2vh,40px);font-weight:700;white-space:nowrap;
overflow:hidden;text-overflow:ellipsis}
header .count{color:#c8d0e0;font-size:clamp(16px,2.4vh,30px);font-weight:600}
main{flex:1;display:flex;min-height:0;padding:1.5vh 2vw;gap:2vw}
.stage{flex:1;min-width:0;display:flex;align-items:center;justify-content:center}
svg.graph{width:100%;height:100%}
aside{width:min(30vw,520px);background:#f3f5f9;border-radius:14px;padding:2vh 1.5vw;
overflow:auto}
aside h3{margin:0 0 1.4vh;font-size:clamp(18px,2.6vh,32px)}
aside img{width:100%;image-rendering:pixelated;border-radius:6px}
.bar{display:grid;grid-template-columns:1fr auto;gap:.6vh 1vw;margin-bottom:1.6vh;
font-size:clamp(16px,2.3vh,28px)}
.bar .track{grid-column:1/3;height:1.3vh;min-height:8px;background:#dde3ec;border-radius:6px}
.bar .fill{display:block;height:100%;background:#0072b2;border-radius:6px}
table{border-collapse:collapse;width:100%;font-size:clamp(16px,2.2vh,26px)}
th{text-align:left;font-weight:600;padding:.6vh 1vw .6vh 0;color:#3a4150}
td{padding:.6vh 0}
.caption{padding:0 2.2vw 2vh;font-size:clamp(28px,3.6vh,46px);line-height:1.3;margin:0}
.notes{display:none;background:#fff8e1;border-top:2px solid #e69f00;margin:0;
padding:1.2vh 2.2vw;font-size:clamp(16px,2.2vh,26px);white-space:pre-wrap}
body.show-notes .notes{display:block}
.progress{position:fixed;left:0;bottom:0;height:.6vh;min-height:4px;background:#e69f00;
transition:width .3s}
.black{display:none;position:fixed;inset:0;background:#000;z-index:9}
body.blank .black{display:block}
.empty{display:flex;height:100vh;align-items:center;justify-content:center;font-size:32px}
@media print{body{overflow:visible}.slide{display:flex!important;height:100vh;
page-break-after:always;break-after:page}.progress,.black{display:none!important}}
"""

SCRIPT = """
(function(){
var slides=document.querySelectorAll('section.slide'),n=slides.length,cur=0;
var bar=document.querySelector('.progress');
function show(i){if(!n)return;cur=Math.max(0,Math.min(n-1,i));
for(var k=0;k<n;k++)slides[k].classList.toggle('current',k===cur);
document.body.dataset.current=String(cur);
if(bar)bar.style.width=((cur+1)/n*100)+'%';
try{history.replaceState(null,'','#'+(cur+1));}catch(e){}}
function step(d){if(document.body.classList.contains('blank')){
document.body.classList.remove('blank');return;}show(cur+d);}
document.addEventListener('keydown',function(e){var k=e.key;
if(k==='ArrowRight'||k==='PageDown'||k===' '||k==='ArrowDown'){step(1);}
else if(k==='ArrowLeft'||k==='PageUp'||k==='ArrowUp'||k==='Backspace'){step(-1);}
else if(k==='Home'){show(0);}else if(k==='End'){show(n-1);}
else if(k==='b'||k==='B'||k==='.'){document.body.classList.toggle('blank');}
else if(k==='n'||k==='N'){document.body.classList.toggle('show-notes');}
else return;e.preventDefault();});
document.addEventListener('click',function(e){
step(e.clientX>window.innerWidth/2?1:-1);});
var h=parseInt((location.hash||'').slice(1),10);show(isNaN(h)?0:h-1);
})();
"""


def tour_html(title: str, slides: list, subtitle: str = "") -> str:
    """One self-contained HTML page: every slide, no network request of any kind."""
    sections = []
    for k, s in enumerate(slides):
        picture = clean_svg(s.svg) if s.svg else ""
        notes = f'<p class="notes">{_e(s.notes)}</p>' if s.notes else ""
        sections.append(
            f'<section class="slide" data-index="{k}"><header><h2>{_e(s.title)}</h2>'
            f'<span class="count">{k + 1} / {len(slides)}</span></header>'
            f'<main><div class="stage">{picture}</div>{_side(s)}</main>'
            f'<p class="caption">{_e(s.caption)}</p>{notes}</section>')
    body = "".join(sections) or '<div class="empty">This tour has no stops.</div>'
    about = f'<meta name="description" content="{_e(subtitle)}">' if subtitle else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"{about}<title>{_e(title)}</title><style>{STYLE}</style></head>"
            f'<body data-current="0">{body}<div class="progress"></div>'
            f'<div class="black"></div><script>{SCRIPT}</script></body></html>\n')
