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
.facts{color:#444;margin:.3em 0}.history{color:#555;font-size:.9em}.flaky{color:#b26a00}.why{color:#b71c1c;margin:.2em 0}
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
section.work,section.merge{border:1px solid #ddd;border-radius:6px;margin:.6em 0;padding:.2em .8em .5em}
section.merge{border-left:4px solid #1565c0}section.work h3,section.merge h3{font-size:1.05em;margin:.4em 0}
section.merge h4{font-size:.95em;margin:.6em 0 .2em;color:#444}
table.wfacts th{color:#555;font-weight:600;width:6em;padding-left:0}
code{overflow-wrap:anywhere}li.left-out{color:#b71c1c}li.left-out code{color:#222}
pre.diff{background:#fafafa;border:1px solid #e3e3e3;padding:.5em;max-height:36em;overflow:auto;font-size:12px;line-height:1.35;white-space:pre}
.d-add{background:#e6ffec;display:inline-block;min-width:100%}.d-del{background:#ffebe9;display:inline-block;min-width:100%}
.d-hunk{color:#6a1b9a}.d-head,.d-file{color:#555;font-weight:600}
p.more{color:#555;margin:.3em 0}details.diff>summary{cursor:pointer;color:#1565c0}
.inside{margin:.5em 0 .2em .6em;padding-left:.6em;border-left:2px dashed #bbb}
.tl-axis{height:18px;color:#555}.tl-axis .tl-track{background:none;border-bottom:1px solid #bbb}
.tl-tick{position:absolute;bottom:0;border-left:1px solid #bbb;padding-left:2px;font-size:10px;white-space:nowrap}
.tl-tick.end{border-left:none;border-right:1px solid #bbb;padding:0 2px 0 0;transform:translateX(-100%)}
.tl-mark{position:absolute;top:0;transform:translateX(-50%);font:bold 9px/12px system-ui,sans-serif;color:#fff;
 padding:0 2px;border-radius:2px;background:#000;z-index:1}
.m-retry{background:#e65100}.m-limit{background:#6a1b9a}.m-approval{background:#00838f}.m-paused{background:#37474f}
.m-waiting{background:#5d4037}.m-session{background:#1565c0}
.legend{font-size:12px;color:#444;margin:.5em 0;display:flex;flex-wrap:wrap;gap:.3em 1em;align-items:center}
.lg-item{display:inline-flex;align-items:center;gap:.35em}.lg-bar{display:inline-block;width:18px;height:10px;border-radius:2px}
.lg-check{display:inline-block;width:12px;height:4px;background:#000;opacity:.6}.lg-mark{position:static;transform:none}
table.claims{border:1px solid #ddd}table.claims td,table.claims th{border-bottom:1px solid #eee}td.num{text-align:right}
@media (max-width:600px){
 body{margin:.6em auto;padding:0 .5em;font-size:13px}
 table.header th{width:auto}table.header,table.header tbody,table.header tr,table.header th,table.header td{display:block}
 table.header th{padding-bottom:0}
 table.branches thead{display:none}table.branches tr.branch{display:block;border-bottom:1px solid #ddd;padding:.3em 0}
 table.branches td{display:inline-block;border:none}table.branches td:last-child{display:block}
 table.attempts{display:block;overflow-x:auto}
 .filter input{width:100%;box-sizing:border-box}
 .tl-row{flex-wrap:wrap;height:auto;margin-bottom:2px}.tl-label{width:100%}.tl-track{flex:none;width:100%}
 .graph svg{max-width:100%;height:auto}
}
`;
