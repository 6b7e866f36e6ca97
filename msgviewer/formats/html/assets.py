"""The page's own style and script, and the Content-Security-Policy that allows exactly them.

The policy forbids every request (``default-src 'none'``): styles and the script run only if
their hashes match these texts, images and sounds only from ``data:`` URIs. Text from the file
is escaped before it reaches the page; the policy is the second wall, should it ever not be.
"""

from __future__ import annotations

import base64
import hashlib

STYLE = """
:root{--bg:#fbfbfa;--fg:#1d1f21;--muted:#6b6f76;--line:#d8dadd;--card:#fff;--user:#2f6fd6;
--assistant:#1f8f5f;--system:#8a5cc2;--tool:#b86e00;--error:#c62828;--code:#f3f4f6;--hl:#fff5c2}
@media (prefers-color-scheme:dark){:root{--bg:#17181a;--fg:#e4e5e7;--muted:#9aa0a6;
--line:#33363a;--card:#1f2124;--code:#2a2d31;--hl:#3d3820}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,
"Segoe UI",sans-serif}
main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 4rem}
header.page h1{font-size:1.4rem;margin:.5rem 0}
.meta,.hint{color:var(--muted);font-size:.85rem}
table.summary{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.85rem}
table.summary td,table.summary th{border:1px solid var(--line);padding:.15rem .5rem;
text-align:left}
table.summary td.n{text-align:right;font-variant-numeric:tabular-nums}
article.msg{background:var(--card);border:1px solid var(--line);border-left:4px solid
var(--muted);border-radius:6px;margin:.75rem 0;padding:.5rem .9rem}
article.msg:target,article.msg.current{outline:2px solid var(--user);outline-offset:1px}
article.role-user{border-left-color:var(--user)}
article.role-assistant{border-left-color:var(--assistant)}
article.role-system{border-left-color:var(--system)}
article.role-tool{border-left-color:var(--tool)}
article.msg>h2{font-size:.8rem;margin:0 0 .25rem;color:var(--muted);font-weight:600;
display:flex;gap:.6rem;align-items:baseline}
h2 .role{text-transform:uppercase;letter-spacing:.05em;color:var(--fg)}
h2 a.self{color:inherit;text-decoration:none}
pre,code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--code);padding:.5rem .7rem;border-radius:4px;overflow:auto;
white-space:pre-wrap;word-break:break-word}
:not(pre)>code{background:var(--code);padding:0 .25rem;border-radius:3px}
.md{overflow-wrap:anywhere}
.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}
details{border:1px solid var(--line);border-radius:4px;margin:.4rem 0;padding:.2rem .6rem}
details:target{background:var(--hl)}
details>summary{cursor:pointer;font-size:.85rem;color:var(--muted)}
details>summary b{color:var(--fg)}
details.reasoning{border-style:dashed}
.error,details.error{border-color:var(--error)}
.badge{font-size:.75rem;border-radius:3px;padding:0 .3rem;border:1px solid var(--line)}
.badge.error{color:var(--error);border-color:var(--error)}
a.jump{font-size:.8rem;margin-left:.5rem}
img.media{max-width:100%;max-height:28rem;display:block;margin:.3rem 0}
.usage{color:var(--muted);font-size:.75rem;margin-top:.3rem}
#help{position:fixed;right:1rem;bottom:1rem;background:var(--card);border:1px solid
var(--line);border-radius:6px;padding:.5rem .8rem;font-size:.8rem}
#help[hidden]{display:none}
"""

SCRIPT = """
(function(){
  "use strict";
  var msgs = Array.prototype.slice.call(document.querySelectorAll("article.msg"));
  var at = -1;
  function show(i){
    if(!msgs.length) return;
    at = Math.max(0, Math.min(msgs.length - 1, i));
    msgs.forEach(function(m){ m.classList.remove("current"); });
    msgs[at].classList.add("current");
    msgs[at].scrollIntoView({block: "nearest"});
  }
  function reveal(){
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    for(var p = el; p; p = p.parentElement){
      if(p.tagName === "DETAILS") p.open = true;
      if(p.tagName === "ARTICLE") at = msgs.indexOf(p);
    }
  }
  window.addEventListener("hashchange", reveal);
  reveal();
  document.addEventListener("keydown", function(e){
    if(e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target && e.target.tagName;
    if(t === "INPUT" || t === "TEXTAREA") return;
    var k = e.key;
    if(k === "j" || k === "]") show(at + 1);
    else if(k === "k" || k === "[") show(at - 1);
    else if(k === "g") show(0);
    else if(k === "G") show(msgs.length - 1);
    else if(k === "t" && at >= 0){
      var a = msgs[at].querySelector("a.jump");
      if(a) location.hash = a.getAttribute("href");
    }
    else if(k === "e" || k === "c"){
      document.querySelectorAll("details").forEach(function(d){ d.open = k === "e"; });
    }
    else if(k === "?"){ var h = document.getElementById("help"); h.hidden = !h.hidden; }
    else return;
    e.preventDefault();
  });
})();
"""


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def policy(*, local_media: bool = False) -> str:
    """No request of any kind; our own style and script by hash; media from data URIs, and
    from the page's own place only when the page refers to media files written beside it
    (``--extract-media``: only those references become ``img``/``audio``/``video``)."""
    media = "data: 'self'" if local_media else "data:"
    return (
        "default-src 'none'; "
        f"style-src {_hash(STYLE)}; "
        f"script-src {_hash(SCRIPT)}; "
        f"img-src {media}; media-src {media}; base-uri 'none'; form-action 'none'"
    )


CSP = policy()
