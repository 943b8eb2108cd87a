// The report page's stylesheet (inline: the page loads nothing).
export const REPORT_CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
code{font-family:ui-monospace,monospace;font-size:.95em}
table{border-collapse:collapse}th,td{text-align:left;padding:.25em .6em;vertical-align:top}
table.header th{color:#555;font-weight:600;width:8em}
table.attempts,table.branches{border:1px solid #ddd;margin:.5em 0;width:100%}
table.attempts td,table.branches td,table.attempts th,table.branches th{border-bottom:1px solid #eee}
.badge{display:inline-block;padding:0 .5em;border-radius:.8em;color:#fff;font-size:.85em;font-weight:600}
.s-passed{background:#2e7d32}.s-failed{background:#c62828}.s-error{background:#ef6c00}.s-skipped{background:#9e9e9e}
.s-cancelled{background:#616161}.s-running{background:#1565c0}.s-waiting{background:#6a1b9a}.s-paused{background:#6a1b9a}
.s-interrupted{background:#616161}.s-unfinished,.s-abandoned{background:#8d6e63}.s-not-started{background:#bdbdbd}
details.node{border:1px solid #ddd;border-radius:6px;margin:.5em 0;padding:.4em .8em}
details.node>summary{cursor:pointer}.kind{color:#777}
.facts{color:#444;margin:.3em 0}.why{color:#b71c1c;margin:.2em 0}
ul.checks{list-style:none;padding-left:0}li.check{margin:.4em 0;padding-left:.6em;border-left:3px solid #2e7d32}
li.check.fail{border-left-color:#c62828}
pre.tail{background:#f6f6f6;border:1px solid #e3e3e3;padding:.5em;max-height:18em;overflow:auto;white-space:pre-wrap;word-break:break-all}
.graph{overflow:auto;border:1px solid #eee;padding:.5em}.note{color:#555}
.filter{margin:.4em 0}.filter input{width:24em}
.timeline{border:1px solid #eee;max-height:30em;overflow-y:auto;overflow-x:hidden}
.tl-row{display:flex;align-items:center;height:16px;font-size:11px}
.tl-label{width:16em;flex:none;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;padding-right:.5em}
.tl-track{position:relative;flex:1;height:12px;background:#fafafa}
.tl-bar{position:absolute;top:1px;height:10px;opacity:.85;border-radius:2px}
.tl-check{position:absolute;top:4px;height:4px;background:#000;opacity:.6}
table.cost td.num{text-align:right}.costbar{width:50%}.costbar span{display:block;height:10px;background:#1565c0}
`;
