"""HTML of the labelling server: the folder's index and one page's blocks.

A page is never served as itself: its blocks are shown as escaped text,
so none of its scripts can run on the server's origin and call the label
API. The only script is the server's own, allowed by a per-response nonce
in the Content-Security-Policy header.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class PageEntry:
    """One page of the folder as the index lists it."""

    url: str
    name: str
    labelled: bool


@dataclass(frozen=True)
class LabelBlock:
    """One block on the labelling page: its key, text, and the state shown first."""

    key: str
    text: str
    keep: bool


STYLE = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2430;background:#fafafa}
header{background:#24344d;color:#fff;padding:10px 20px;position:sticky;top:0;z-index:1}
header a{color:#cfe0ff}
h1{font-size:18px;margin:0}
main{padding:12px 20px;max-width:980px}
progress{width:240px;vertical-align:middle}
.help{font-size:13px;opacity:.9;margin:4px 0 0}
kbd{background:#eef0f3;color:#1d2430;border-radius:3px;padding:0 4px;font-size:12px}
ol.blocks{padding-left:40px}
.block{margin:0 0 5px;padding:5px 9px;border-radius:3px;cursor:pointer;white-space:pre-wrap;overflow-wrap:anywhere}
.keep{background:#dff3e6;border-left:5px solid #2e8b57}
.drop{background:#eef0f3;color:#6b7380;border-left:5px solid #c9ced6;text-decoration:line-through}
.block:focus{outline:3px solid #e67e22;outline-offset:1px}
button{font:inherit;padding:3px 12px;margin-right:6px}
#status{margin-left:10px}
table{border-collapse:collapse}
td,th{border-bottom:1px solid #ddd;padding:3px 10px;text-align:left}
.done{color:#2e8b57}
"""


def _head(title: str, nonce: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<style nonce="{escape(nonce)}">{STYLE}</style></head><body>'
    )


def _progress(done: int, total: int) -> str:
    return (
        f'<progress id="progress" value="{done}" max="{max(total, 1)}"></progress> '
        f'<span id="progress-text">{done} of {total} pages labelled</span>'
    )


def index_page(entries: list[PageEntry], folder: str, nonce: str) -> str:
    """The folder's pages with their state and the progress over all of them."""
    done = sum(e.labelled for e in entries)
    rows = "".join(
        f'<tr><td><a href="{escape(e.url)}">{escape(e.name)}</a></td>'
        f'<td class="{"done" if e.labelled else ""}">{"labelled" if e.labelled else "not yet"}</td></tr>'
        for e in entries
    )
    first = next((e for e in entries if not e.labelled), entries[0] if entries else None)
    start = f'<p><a id="start" href="{escape(first.url)}">Start labelling</a></p>' if first else ""
    return (
        _head("scrapy-bte label", nonce)
        + f"<header><h1>Label {escape(folder)}</h1><p>{_progress(done, len(entries))}</p></header>"
        + f'<main>{start}<table id="pages"><thead><tr><th>page</th><th>state</th></tr></thead>'
        + f"<tbody>{rows}</tbody></table></main></body></html>\n"
    )


SCRIPT = """
(function () {
  const token = document.querySelector('meta[name="label-token"]').content;
  const blocks = Array.from(document.querySelectorAll('li.block'));
  const status = document.getElementById('status');
  const nextLink = document.getElementById('next');
  let current = 0;
  function show(el, keep) {
    for (const other of blocks) {
      if (other.dataset.key === el.dataset.key) {
        other.classList.toggle('keep', keep);
        other.classList.toggle('drop', !keep);
        other.setAttribute('aria-pressed', keep ? 'true' : 'false');
      }
    }
    status.textContent = 'unsaved changes';
  }
  function focusBlock(i) {
    if (!blocks.length) return;
    current = Math.max(0, Math.min(blocks.length - 1, i));
    blocks[current].focus();
  }
  async function save(andNext) {
    const labels = {};
    for (const el of blocks) labels[el.dataset.key] = el.classList.contains('keep');
    status.textContent = 'saving...';
    const response = await fetch(document.body.dataset.save, {
      method: 'POST',
      headers: {'Content-Type': 'application/json', 'X-Label-Token': token},
      body: JSON.stringify({labels: labels})
    });
    if (!response.ok) { status.textContent = 'not saved: ' + response.status; return; }
    const done = await response.json();
    document.getElementById('progress').value = done.labelled;
    document.getElementById('progress-text').textContent = done.labelled + ' of ' + done.total + ' pages labelled';
    status.textContent = 'saved ' + done.blocks + ' labels';
    if (andNext && nextLink) window.location.href = nextLink.href;
  }
  blocks.forEach(function (el, i) {
    el.addEventListener('click', function () { current = i; show(el, !el.classList.contains('keep')); });
  });
  document.getElementById('save').addEventListener('click', function () { save(false); });
  document.getElementById('save-next').addEventListener('click', function () { save(true); });
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const el = blocks[current];
    switch (e.key) {
      case 'j': case 'ArrowDown': focusBlock(current + 1); break;
      case 'k': case 'ArrowUp': focusBlock(current - 1); break;
      case ' ': case 'x': if (el) show(el, !el.classList.contains('keep')); break;
      case 'a': if (el) show(el, true); break;
      case 'd': if (el) show(el, false); break;
      case 's': save(false); break;
      case 'n': case 'Enter': save(true); break;
      default: return;
    }
    e.preventDefault();
  });
  focusBlock(0);
})();
"""


def label_page(
    name: str,
    blocks: list[LabelBlock],
    *,
    save_url: str,
    next_url: str | None,
    index_url: str,
    done: int,
    total: int,
    saved: bool,
    token: str,
    nonce: str,
) -> str:
    """One page's blocks, each toggled between keep and drop, and the save controls."""
    items = "".join(
        f'<li class="block {"keep" if b.keep else "drop"}" tabindex="0" role="button" '
        f'aria-pressed="{"true" if b.keep else "false"}" data-key="{escape(b.key)}">{escape(b.text)}</li>'
        for b in blocks
    )
    origin = "saved labels" if saved else "the model's guess"
    nxt = f' <a id="next" href="{escape(next_url)}">next page</a>' if next_url else ""
    return (
        _head(f"label {name}", nonce)
        .replace("</head>", f'<meta name="label-token" content="{escape(token)}"></head>', 1)
        .replace("<body>", f'<body data-save="{escape(save_url)}">', 1)
        + f'<header><h1>{escape(name)}</h1><p>{_progress(done, total)} · <a href="{escape(index_url)}">all pages</a>'
        f'{nxt}</p><p><button id="save">Save</button><button id="save-next">Save and next</button>'
        f'<span id="status">showing {escape(origin)}</span></p>'
        '<p class="help">Click a block or press <kbd>space</kbd>/<kbd>x</kbd> to toggle keep/drop; '
        "<kbd>a</kbd> keep, <kbd>d</kbd> drop, <kbd>j</kbd>/<kbd>k</kbd> next/previous block, "
        "<kbd>s</kbd> save, <kbd>n</kbd> save and go to the next page.</p></header>"
        f'<main><ol class="blocks" start="0">{items}</ol></main>'
        f'<script nonce="{escape(nonce)}">{SCRIPT}</script></body></html>\n'
    )
