// loop.mjs — loop overhead in Node: every contender (contenders.mjs) runs
// issue 7's scenario against the fake model (fake-model.mjs), each in its own
// process, in interleaved rounds; the report is the median over rounds of
// each process's median.
//
//   node bench/loop.mjs [rounds=3]            all contenders, 0 and 200 history
//   node bench/loop.mjs one <name> <history>  one process's measurement (JSON)
//
// BENCH_RUNS (200) timed runs follow BENCH_WARMUP (20) warm-up runs; the
// warm-up runs also check every request the model receives. A run counts only
// if it made exactly 10 model calls and 9 tool executions and ended "done".

import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { checkedLoop, median } from "./checked-loop.mjs";
import { TURNS } from "./fake-model.mjs";

export const NAMES = ["ours", "ai-sdk", "ai-sdk-6", "agents", "floor"];
export const HISTORIES = [0, 200];
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);

export { median };

async function measureOne(name, historyLength) {
  // No sockets: any request that is not the fake model's fails loudly.
  globalThis.fetch = async (url) => { throw new Error(`bench: network disabled (${url})`); };
  const dist = pathToFileURL((process.env.TOOLNEXUS_DIST ?? fileURLToPath(new URL("../dist", import.meta.url))) + "/");
  const { one, warm } = await checkedLoop(name, historyLength, dist);
  await warm(WARMUP);
  const ms = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await one();
    ms.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    name, history: historyLength, runs: RUNS, warmup: WARMUP, verified: true,
    msPerTurn: median(ms) / TURNS,
    cpuMsPerRun: (cpu.user + cpu.system) / 1000 / RUNS,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
  };
}

// spawnOne runs one measurement in a fresh process; extra node flags
// (e.g. --cpu-prof) go in execArgv.
export function spawnOne(name, historyLength, execArgv = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, fileURLToPath(import.meta.url), "one", name, String(historyLength)], {
      stdio: ["ignore", "pipe", "inherit"], timeout: 600_000,
    });
    let out = "";
    child.stdout.on("data", (c) => { out += c; });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`loop.mjs one ${name} ${historyLength}: exit ${code}`));
      resolve(JSON.parse(out.trim().split("\n").pop()));
    });
  });
}

// measureAll runs `rounds` rounds; each round runs every contender × history
// once, in an order rotated from round to round.
export async function measureAll(rounds = 3, log = console.error) {
  const jobs = HISTORIES.flatMap((h) => NAMES.map((n) => [n, h]));
  const all = [];
  for (let r = 0; r < rounds; r++) {
    const order = jobs.map((_, i) => jobs[(i + r * 3) % jobs.length]);
    for (const [n, h] of order) {
      const res = await spawnOne(n, h).catch((err) => ({ name: n, history: h, error: err.message }));
      if (res.error) {
        log(`   round ${r + 1}/${rounds} ${n} history ${h}: FAILED: ${res.error}`);
        all.push(res);
        continue;
      }
      log(`   round ${r + 1}/${rounds} ${n.padEnd(6)} history ${String(h).padStart(3)}: ${res.msPerTurn.toFixed(3)} ms/turn, ${res.cpuMsPerRun.toFixed(2)} CPU ms/run, ${res.peakRssMB.toFixed(0)} MB`);
      all.push(res);
    }
  }
  const out = [];
  for (const h of HISTORIES) {
    for (const n of NAMES) {
      const mine = all.filter((x) => x.name === n && x.history === h && !x.error);
      const failed = all.filter((x) => x.name === n && x.history === h && x.error);
      out.push({
        failed: failed.length, error: failed[0]?.error,
        name: n, history: h, rounds, runs: RUNS, warmup: WARMUP,
        msPerTurn: median(mine.map((x) => x.msPerTurn)),
        min: Math.min(...mine.map((x) => x.msPerTurn)), max: Math.max(...mine.map((x) => x.msPerTurn)),
        cpuMsPerRun: median(mine.map((x) => x.cpuMsPerRun)),
        cpuMin: Math.min(...mine.map((x) => x.cpuMsPerRun)), cpuMax: Math.max(...mine.map((x) => x.cpuMsPerRun)),
        peakRssMB: mine.length ? Math.max(...mine.map((x) => x.peakRssMB)) : NaN,
      });
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "one") {
    const res = await measureOne(process.argv[3], Number(process.argv[4] ?? 0));
    console.log(JSON.stringify(res));
    process.exit(0);
  }
  const res = await measureAll(Number(process.argv[2] ?? 3));
  console.table(res.map(({ name, history, msPerTurn, cpuMsPerRun, peakRssMB }) => ({ name, history, msPerTurn, cpuMsPerRun, peakRssMB })));
}
