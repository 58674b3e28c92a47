#!/usr/bin/env node
// Checks wrkbench's HdrHistogram encodings with an independent implementation,
// hdr-histogram-js (pinned in package.json; installed by packaging/install-deps.sh).
// Run by tests/engine/stats/hdrcodec_js_test.cpp. Exit 0 and "ok ..." on success,
// 1 with one line per mismatch otherwise.
//
//   hdrcheck.js check FILE        FILE: {"histograms": [{"name", "histf", "total",
//                                 "buckets": [[highest value, count], ...], "percentiles": [[p, value], ...]}]}
//                                 (written by the test from our encoder): decode each, compare
//                                 the total, every non-empty bucket and the percentiles' buckets
//   hdrcheck.js make SEED N       prints N histograms recorded and encoded by hdr-histogram-js,
//                                 as [{"histf", "total", "buckets"}], for our decoder to check
//   hdrcheck.js json FILE         a wrkbench-cli --json result: every summary and interval
//                                 histogram against histogram_totals and the percentiles, and
//                                 the intervals, added, against the summary
//   hdrcheck.js log LOG JSON      an --hdr-log file read by HistogramLogReader: lines per tag,
//                                 and each tag's intervals, added, against the JSON's summary

"use strict";
const fs = require("fs");
const hdr = require("hdr-histogram-js");

const BITS = 64; // Float64 counters: exact up to 2^53
const failures = [];
const fail = (message) => failures.push(message);

function decode(histf) {
    return hdr.decodeFromCompressedBase64(histf, BITS, false);
}

// [[highest equivalent value, count], ...] of the non-empty buckets, lowest first.
function buckets(h) {
    const out = [];
    const it = h.recordedValuesIterator;
    it.reset();
    while (it.hasNext()) {
        const v = it.next();
        out.push([v.valueIteratedTo, v.countAtValueIteratedTo]);
    }
    return out;
}

function sameBuckets(where, got, want) {
    if (got.length !== want.length) {
        fail(`${where}: ${got.length} non-empty buckets, expected ${want.length}`);
        return;
    }
    for (let i = 0; i < got.length; ++i) {
        if (got[i][0] !== want[i][0] || got[i][1] !== want[i][1]) {
            fail(`${where}: bucket ${i} is ${JSON.stringify(got[i])}, expected ${JSON.stringify(want[i])}`);
            return;
        }
    }
}

function sameBucket(where, h, got, want) {
    if (h.lowestEquivalentValue(got) !== h.lowestEquivalentValue(want))
        fail(`${where}: ${got} and ${want} are in different buckets`);
}

function checkOurs(file) {
    const doc = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const item of doc.histograms) {
        const h = decode(item.histf);
        if (h.totalCount !== item.total) fail(`${item.name}: total ${h.totalCount}, expected ${item.total}`);
        sameBuckets(item.name, buckets(h), item.buckets);
        if (item.total > 0)
            for (const [p, value] of item.percentiles)
                sameBucket(`${item.name} p${p}`, h, h.getValueAtPercentile(p), value);
    }
    return `${doc.histograms.length} histograms`;
}

// A small deterministic generator (mulberry32), so a seed repeats.
function rng(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function make(seed, n) {
    const random = rng(seed);
    const out = [];
    for (let i = 0; i < n; ++i) {
        // Auto-resizing (the library's default) and fixed ranges, as users build them.
        const request = { lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 2, bitBucketSize: BITS };
        if (i % 2 === 1) request.highestTrackableValue = Math.pow(2, 20 + (i % 17)) - 1;
        const h = hdr.build(request);
        const values = i === 0 ? 0 : 1 + Math.floor(random() * 3000);
        const scale = 1 + Math.floor(random() * (request.highestTrackableValue ? Math.log2(request.highestTrackableValue) : 36));
        for (let k = 0; k < values; ++k) {
            const value = Math.floor(random() * Math.pow(2, scale));
            h.recordValueWithCount(Math.min(value, Math.pow(2, 36) - 1), 1 + Math.floor(random() * 3));
        }
        if (i === 2) h.recordValueWithCount(12345, Math.pow(2, 50)); // a huge count
        out.push({ histf: hdr.encodeIntoCompressedBase64(h), total: h.totalCount, buckets: buckets(h) });
    }
    fs.writeSync(1, JSON.stringify(out) + "\n"); // synchronous: a pipe gets all of it
}

function checkTotals(where, h, totals) {
    if (h.totalCount !== totals.count) fail(`${where}: total ${h.totalCount}, expected ${totals.count}`);
    if (totals.count === 0) return;
    if (h.maxValue !== h.highestEquivalentValue(totals.max_us))
        fail(`${where}: max ${h.maxValue} is not the bucket of ${totals.max_us}`);
    if (totals.min_us > 0 && h.minNonZeroValue !== h.lowestEquivalentValue(totals.min_us))
        fail(`${where}: min ${h.minNonZeroValue} is not the bucket of ${totals.min_us}`);
    // The mean from the buckets is within a bucket's width (1/128) of the exact one.
    const exactMean = totals.sum_us / totals.count;
    if (Math.abs(h.mean - exactMean) > exactMean / 100 + 1)
        fail(`${where}: mean ${h.mean} far from the exact ${exactMean}`);
}

function checkJson(file) {
    const doc = JSON.parse(fs.readFileSync(file, "utf8"));
    const summary = doc.summary;
    const keys = Object.keys(summary.histograms);
    if (!keys.includes("latency")) fail("summary.histograms has no latency");
    let checked = 0;
    for (const key of keys) {
        const whole = decode(summary.histograms[key]);
        checkTotals(`summary ${key}`, whole, summary.histogram_totals[key]);
        const added = hdr.build({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 2, bitBucketSize: BITS });
        doc.intervals.forEach((interval, i) => {
            const h = decode(interval.histograms[key]);
            checkTotals(`interval ${i} ${key}`, h, interval.histogram_totals[key]);
            added.add(h);
            ++checked;
        });
        sameBuckets(`intervals added, ${key}`, buckets(added), buckets(whole));
        ++checked;
    }
    const latency = decode(summary.histograms.latency);
    if (latency.totalCount > 0)
        for (const [p, name] of [[50, "p50"], [90, "p90"], [99, "p99"], [99.9, "p99_9"]])
            sameBucket(`summary latency ${name}`, latency, latency.getValueAtPercentile(p), summary.latency_us[name]);
    if (latency.totalCount !== summary.requests) fail(`latency count ${latency.totalCount}, requests ${summary.requests}`);
    return `${checked} histograms (${keys.join(", ")}), ${doc.intervals.length} intervals`;
}

function checkLog(logFile, jsonFile) {
    const doc = JSON.parse(fs.readFileSync(jsonFile, "utf8"));
    const content = fs.readFileSync(logFile, "utf8");
    const keys = Object.keys(doc.summary.histograms);
    const tags = hdr.listTags(content).filter((t) => t !== "NO TAG");
    if (JSON.stringify(tags.slice().sort()) !== JSON.stringify(keys.slice().sort()))
        fail(`log tags ${tags}, JSON histograms ${keys}`);
    const reader = new hdr.HistogramLogReader(content, BITS);
    const added = {};
    const lines = {};
    let h;
    while ((h = reader.nextIntervalHistogram()) !== null) {
        if (!added[h.tag])
            added[h.tag] = hdr.build({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 2, bitBucketSize: BITS });
        added[h.tag].add(h);
        lines[h.tag] = (lines[h.tag] || 0) + 1;
    }
    const startMs = doc.summary.start_unix_ms;
    if (Math.abs(reader.baseTimeSec * 1000 - startMs) > 1)
        fail(`log base time ${reader.baseTimeSec}s, the run started at ${startMs}ms`);
    for (const key of keys) {
        if (lines[key] !== doc.intervals.length) fail(`${key}: ${lines[key]} lines, ${doc.intervals.length} intervals`);
        const whole = decode(doc.summary.histograms[key]);
        sameBuckets(`log ${key}`, buckets(added[key] || whole), buckets(whole));
        if (added[key] && added[key].totalCount !== doc.summary.histogram_totals[key].count)
            fail(`log ${key}: total ${added[key].totalCount}, JSON ${doc.summary.histogram_totals[key].count}`);
    }
    return `${keys.length} tags, ${doc.intervals.length} intervals`;
}

const [mode, ...args] = process.argv.slice(2);
let summary;
if (mode === "check") summary = checkOurs(args[0]);
else if (mode === "make") make(Number(args[0]), Number(args[1]));
else if (mode === "json") summary = checkJson(args[0]);
else if (mode === "log") summary = checkLog(args[0], args[1]);
else {
    console.error("usage: hdrcheck.js check FILE | make SEED N | json FILE | log LOG JSON");
    process.exit(2);
}
if (mode === "make") {
    // printed already
} else if (failures.length) {
    for (const f of failures.slice(0, 20)) console.log(f);
    process.exitCode = 1; // not exit(): the lines above would be lost on a pipe
} else {
    console.log(`ok ${summary}`);
}
