"""Turns ordo-one/benchmark's text output into the summary table of BENCHMARKS.md.

Usage: bench_table.py RAW_OUTPUT MEMORY_JSON [PAIRED_RECORDING_JSON]
Times are medians unless said (under 10 µs in nanoseconds), allocations are mallocs per operation
(median). Each benchmark is set against its baseline from the same run; benchmark 8 (issue 20's
table of the peers) gets a table of its own with the ratios between its rows, benchmark 9
(issue 16's stream replay) a line with its goal, and benchmark 10 (issue 39's WebSocket
conversations) a table per message. Benchmarks 11 to 14 (issue 46's recordings) are set against
the raw write of the same bytes, the smaller file, and data(for:).
"""
import json
import re
import sys

SCALE = {"(K)": 1e3, "(M)": 1e6, "(G)": 1e9}
TIME = {"ns": 1e-3, "μs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def parse(path):
    results, current = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        if line[0] not in "│╒╞├╘=" and not line.startswith(("Build", "[", "Running", "Benchmark", "Host", "Warning")):
            if re.match(r"^\d+ ", line):
                current = line.strip()
                results[current] = {}
            continue
        if current is None or not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        name, values = cells[0], cells[1:]
        if name == "Metric" or len(values) < 8:
            continue
        factor = 1.0
        for key, value in SCALE.items():
            if key in name:
                factor *= value
        unit = re.search(r"\((ns|μs|us|ms|s)\)", name)
        kind = "time" if "wall clock" in name else "malloc" if "Malloc (total)" in name else None
        if kind is None:
            continue
        if unit:
            factor *= TIME[unit.group(1)]
        numbers = [float(v.replace(",", "")) * factor for v in values[:7]]
        results[current][kind] = dict(zip(["p0", "p25", "p50", "p75", "p90", "p99", "p100"], numbers), samples=values[7])
    return results


STREAM_REPLAY = "9 stream replay: 1,000 events through bytes(for:), read as lines"
STREAM_BASELINE = "9 stream baseline: the same bytes from one Data, split into lines"
STREAM_FLOOR = "9 stream floor: the same bytes from one Data, split in its buffer"
STREAM_MAIN = "9 stream replay: 1,000 events through bytes(for:), read as lines from the main actor"
WS_MESSAGES = 1000
WS_EXCHANGE = "10 websocket replay: 1,000 messages, 500 sent each answered"
WS_EXCHANGE_MAIN = "10 websocket replay: 1,000 messages, 500 sent each answered, from the main actor"
WS_EXCHANGE_BASELINE = "10 websocket baseline: 1,000 messages, 500 sent each answered, from an array"
WS_PUSHES = "10 websocket replay: 1,000 server pushes"
WS_PUSHES_BASELINE = "10 websocket baseline: 1,000 server pushes, from an array"


def fmt_time(us):
    if us < 10:
        return f"{us * 1000:,.0f} ns"
    if us >= 10_000:
        return f"{us / 1000:,.0f} ms"
    if us >= 1000:
        return f"{us / 1000:,.1f} ms"
    return f"{us:,.1f} µs" if us < 100 else f"{us:,.0f} µs"


def main():
    results = parse(sys.argv[1])
    memory = json.loads(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else {}
    paired = json.loads(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else {}

    def med(name, kind="time", p="p50"):
        entry = results.get(name, {}).get(kind)
        return entry[p] if entry else None

    baselines = {
        "1 replay via Turntable.data(for:) from the main actor": "1 replay via Turntable.data(for:)",
        "1 ": "3 baseline: bare URLProtocol stub",
        "2 ": "3 baseline: bare URLProtocol stub",
        "4 ": "3 baseline: bare URLProtocol stub",
        "5 lookup hit": "5 lookup hit, 10 tracks",
        "5 body lookup hit": "5 body lookup hit, 10 tracks",
        "5 lookup miss": "5 lookup miss, 10 tracks",
        "6 load": "6 baseline: JSONSerialization parse",
        "7 record": "7 baseline: plain URLSession, 200 requests",
        "9 stream replay": STREAM_BASELINE,
        WS_EXCHANGE: WS_EXCHANGE_BASELINE,
        WS_PUSHES: WS_PUSHES_BASELINE,
        "11 record": "11 baseline: raw write of the same 5 MB",
        "12 record": "12 baseline: raw write of the same 16 MB",
        "13 record 10 tracks into a 10,000": "13 record 10 tracks into a 100-track file and eject",
        "14 record": "14 baseline: the same through data(for:)",
    }
    print("| benchmark | p50 | p90 | p99 | mallocs (p50) | samples | against baseline (p50) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name in sorted(results, key=lambda n: (int(n.split()[0]), "baseline" not in n, n)):
        t = results[name].get("time")
        m = results[name].get("malloc")
        if not t:
            continue
        ratio = ""
        for prefix, base in baselines.items():
            if name.startswith(prefix) and name != base and med(base):
                r = t["p50"] / med(base)
                ratio = f"{r:.2f}× of “{base}”" if r >= 0.1 else f"{1 / r:.1f}× faster than “{base}”"
                break
        print(f"| {name} | {fmt_time(t['p50'])} | {fmt_time(t['p90'])} | {fmt_time(t['p99'])} | "
              f"{m['p50']:,.0f} | {t['samples']} | {ratio} |" if m else f"| {name} | {fmt_time(t['p50'])} | | | | | {ratio} |")
    peers_table(results, med)
    stream_goal(med)
    websocket_table(med)
    if paired:
        print()
        print(f"| 7 paired: {paired['requests']} requests, {paired['rounds']} rounds side by side | plain URLSession | recording + eject | eject | recording / plain (median of rounds) |")
        print("| --- | ---: | ---: | ---: | ---: |")
        print(f"| GramophoneBenchDriver record | {fmt_time(paired['plainMs'] * 1000)} | {fmt_time(paired['recordingMs'] * 1000)} | "
              f"{fmt_time(paired['ejectMs'] * 1000)} | {paired['pairedRatio']:.3f}× |")
    if memory:
        size = memory.get("fileBytes", 0)
        print()
        print("| memory while loaded (10,000-track vinyl) | bytes | × file size |")
        print("| --- | ---: | ---: |")
        print(f"| file | {size:,} | 1.00 |")
        for key, label in [("vinylBytes", "Vinyl (tracks, bodies decoded)"), ("turntableIndexBytes", "+ Turntable index"),
                           ("jsonSerializationBytes", "JSONSerialization object tree (reference)")]:
            if key in memory and size:
                print(f"| {label} | {memory[key]:,} | {memory[key] / size:.2f} |")
        if size and "vinylBytes" in memory:
            total = memory["vinylBytes"] + memory.get("turntableIndexBytes", 0)
            print(f"| Vinyl + Turntable | {total:,} | {total / size:.2f} |")


def stream_goal(med):
    """Issue 16's goal: the 1,000-event replay read as lines at most 2× the baseline of the same
    run; beside it the floor (the split in the Data's buffer), and the replay from the main actor
    with its ratio to the same replay off it."""
    replay, baseline = med(STREAM_REPLAY), med(STREAM_BASELINE)
    if not (replay and baseline):
        return
    def cell(name):
        t, m = med(name), med(name, "malloc")
        if t is None:
            return ""
        return f"{fmt_time(t)} ({m:,.0f})" if m is not None else fmt_time(t)
    print()
    print("| 9: 1,000-event stream, median (mallocs) | replay, lines | baseline: Data split | replay ÷ baseline (goal ≤ 2×) | floor: split in the buffer | replay ÷ floor | replay from the main actor | main actor ÷ off it |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    floor, main = med(STREAM_FLOOR), med(STREAM_MAIN)
    print(f"| one run | {cell(STREAM_REPLAY)} | {cell(STREAM_BASELINE)} | {replay / baseline:.2f}× ({'met' if replay / baseline <= 2 else 'not met'}) | "
          f"{cell(STREAM_FLOOR)} | {f'{replay / floor:.1f}×' if floor else ''} | {cell(STREAM_MAIN)} | {f'{main / replay:.2f}×' if main else ''} |")


def websocket_table(med):
    """Issue 39: each 1,000-message conversation per message, beside the same messages handed out
    from an array by a hand-written fake in the same run."""
    if med(WS_EXCHANGE) is None and med(WS_PUSHES) is None:
        return
    def cell(name):
        t, m = med(name), med(name, "malloc")
        if t is None:
            return ""
        # µs per conversation → ns per message; mallocs per conversation → per message.
        ns = t * 1000 / WS_MESSAGES
        return f"{ns:,.0f} ns ({m / WS_MESSAGES:,.1f})" if m is not None else f"{ns:,.0f} ns"
    print()
    print("| 10: 1,000-message WebSocket conversation, per message, median (mallocs) | replay | baseline: fake from an array | replay ÷ baseline |")
    print("| --- | ---: | ---: | ---: |")
    for label, replay, baseline in [("500 sent, each answered", WS_EXCHANGE, WS_EXCHANGE_BASELINE),
                                    ("500 sent, each answered, from the main actor", WS_EXCHANGE_MAIN, WS_EXCHANGE_BASELINE),
                                    ("1,000 server pushes", WS_PUSHES, WS_PUSHES_BASELINE)]:
        a, b = med(replay), med(baseline)
        if a is None:
            continue
        print(f"| {label} | {cell(replay)} | {cell(baseline)} | {f'{a / b:,.1f}×' if b else ''} |")


def peers_table(results, med):
    """Benchmark 8 laid out as issue 20's table of the real peers, with the ratios of this run."""
    sizes = [1, 1000, 10000]
    rows = [("Turntable `data(for:)`, caller off the main actor", "8 Turntable.data(for:), {} entries"),
            ("Turntable `data(for:)`, caller on the main actor", "8 Turntable.data(for:) from the main actor, {} entries"),
            ("Turntable `makeURLSession()`", "8 Turntable-backed URLSession, {} entries"),
            ("model of the peers' lookup (URLProtocol scanning its entries)", "8 peers' lookup (model: URLProtocol scanning its entries), {} entries")]
    if not any(name.startswith("8 ") for name in results):
        return
    def cell(template, size):
        value = med(template.format(size))
        return fmt_time(value) if value else ""
    def ratio(top, bottom, size):
        a, b = med(top.format(size)), med(bottom.format(size))
        return f"{a / b:,.2f}×" if a and b else ""
    print()
    print("| 8: the last of N GET entries, median (mallocs) | 1 entry | 1,000 | 10,000 |")
    print("| --- | ---: | ---: | ---: |")
    for label, template in rows:
        mallocs = [med(template.format(size), "malloc") for size in sizes]
        print(f"| {label} | " + " | ".join(f"{cell(template, size)} ({m:,.0f})" if m is not None else cell(template, size)
                                           for size, m in zip(sizes, mallocs)) + " |")
    off, main, session, model = (template for _, template in rows)
    for label, top, bottom in [("peers' model ÷ Turntable `data(for:)` off the main actor", model, off),
                               ("peers' model ÷ Turntable `data(for:)` on the main actor", model, main),
                               ("peers' model ÷ Turntable `makeURLSession()`", model, session),
                               ("on the main actor ÷ off it", main, off)]:
        print(f"| {label} | " + " | ".join(ratio(top, bottom, size) for size in sizes) + " |")


if __name__ == "__main__":
    main()
