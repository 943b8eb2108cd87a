import { fastYamlValue } from "./src/engine/graph/yaml-fast.ts";
import { libraryFront } from "./src/engine/graph/yaml-front.ts";
const H = "version: 1\nname: t\n";
const shapes: Record<string,(n:number)=>string> = {
  flowMapManyKeys: n => { const p:string[]=[]; for(let i=0;p.length*12<n;i++) p.push(`k${i}: v`); return H+`inputs: {${p.join(", ")}}\nnodes: {}\n`; },
  flowSeqLong: n => H+`tags: [${Array.from({length:Math.floor(n/4)},()=>"ab").join(", ")}]\nnodes: {}\n`,
  tinyLines: n => { const l=[H+"inputs:"]; for(let i=0;l.length*10<n;i++) l.push(` k${i}: 1`); return l.join("\n")+"\nnodes: {}\n"; },
  listItems: n => H+"items:\n"+"- a\n".repeat(Math.floor(n/4))+"nodes: {}\n",
  quotedEscapes: n => H+`description: "${'\\n\\"\\\\'.repeat(Math.floor(n/6))}"\nnodes: {}\n`,
  longPlain: n => H+`description: ${"ab ".repeat(Math.floor(n/3))}z\nnodes: {}\n`,
  deep48: n => { const d=Array.from({length:47},(_,i)=>`${" ".repeat(i)}a${i}:`).join("\n"); const l=[H+d]; for(let i=0;l.length*60<n;i++) l.push(`${" ".repeat(47)}x${i}: 1`); return l.join("\n")+"\n"; },
  deepFlow: n => { const one = "{a: ".repeat(40)+"1"+"}".repeat(40); const l=[H+"m:"]; for(let i=0;l.length*(one.length+10)<n;i++) l.push(` k${i}: ${one}`); return l.join("\n")+"\nnodes: {}\n"; },
  dupLooking: n => { const l=[H+"inputs:"]; for(let i=0;l.length*30<n;i++) l.push(` "k${i%1000}_${i}": x`); return l.join("\n")+"\nnodes: {}\n"; },
  seqOfFlowMaps: n => { const l=[H+"list:"]; for(let i=0;l.length*22<n;i++) l.push(`- {a: 1, b${i}: x}`); return l.join("\n")+"\nnodes: {}\n"; },
  dashes: n => { const l=[H+"x:"]; const ln = "- ".repeat(40)+"v"; for(let i=0;l.length*ln.length<n;i++) l.push(ln); return l.join("\n")+"\n"; },
  blockScalar: n => H+"d: |\n"+"  line text here\n".repeat(Math.floor(n/17))+"nodes: {}\n",
};
const only = process.argv[2]; import { isDeepStrictEqual } from "node:util";
for (const [name, f] of Object.entries(shapes)) {
  if (only && name!==only) continue;
  const out:string[]=[];
  for (const size of [1_000_000, 4_000_000]) {
    const t = f(size);
    const a=performance.now(); const r = fastYamlValue(t); const b=performance.now();
    out.push(`${(t.length/1e6).toFixed(2)}MB ${r? "fast":"null"} ${(b-a).toFixed(0)}ms`);
  }
  console.log(name.padEnd(16), out.join(" | "));
}
if (process.argv[3]==="agree") for (const [name,f] of Object.entries(shapes)) {
  const t=f(3_900_000); const r=fastYamlValue(t); const s=libraryFront("p.yaml",t,"h");
  console.log("agree", name, (t.length/1e6).toFixed(2), r?"fast":"null", s.problems.length, r? isDeepStrictEqual(r.value,s.raw):"-");
}
