#!/usr/bin/python3
"""Check report.html's cost charts against run.json and a screenshot.

    chart-check.py RUN_JSON DOM_HTML SCREENSHOT_PNG

RUN_JSON: the run's run.json (its "costs"); DOM_HTML: the DOM chromium
built for report.html (--dump-dom); SCREENSHOT_PNG: chromium's screenshot
of report.html#costs.  Checks, printing one "FAIL: ..." line per problem
and exiting 1 when there is one:

 - every figure has one row per cost entry (group), in order, labelled
   with the group's name;
 - each bar's data-value is the number run.json holds for that figure
   (delta / the figure's scale), and within a figure every bar's width is
   |value| times the same scale (the chart's pixels per unit), +-1 px;
 - the screenshot shows those bars: every block of a bar colour (at least
   12 rows of the same horizontal run) is as wide as a rectangle of that
   kind in the DOM, and there are as many blocks as drawn rectangles
   (the whole costs section must be in the screenshot).

Standard library only (the PNG is decoded here).
"""
import json
import struct
import sys
import zlib
from html.parser import HTMLParser

FILLS = {"more": (0xC8, 0x55, 0x3D), "less": (0x2E, 0x8B, 0x57),
         "none": (0x9A, 0xA4, 0xAD)}
# figure title -> (section, member, value key, scale), as core/report_costs.c
FIGURES = {
    "Objects compiled": ("build", "objects", "delta", 1),
    "bzImage (KiB)": ("size", "bzimage_bytes", "delta", 1024),
    "vmlinux text (KiB)": ("size", "text", "delta", 1024),
    "Options turned on (direct + implied)": ("config", None, "on", 1),
    "CPU of the incremental build after the base (s)":
        ("build", "incremental", "cpu_seconds", 1),
}

fails = []


def fail(msg):
    fails.append(msg)
    print("FAIL: " + msg)


class Dom(HTMLParser):
    """The figures of the costs section: title, labels, bars."""

    def __init__(self):
        super().__init__()
        self.figs = []
        self.in_caption = self.in_label = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure" and "cost" in (a.get("class") or ""):
            self.figs.append({"title": a.get("data-figure"), "labels": [],
                              "bars": []})
        elif not self.figs:
            return
        elif tag == "text" and a.get("class") == "label":
            self.in_label = True
            self.figs[-1]["labels"].append("")
        elif tag == "rect" and a.get("class") == "bar":
            self.figs[-1]["bars"].append({
                "row": len(self.figs[-1]["labels"]) - 1,
                "value": float(a["data-value"]), "kind": a["data-kind"],
                "x": int(a["x"]), "width": int(a["width"])})

    def handle_endtag(self, tag):
        if tag == "text":
            self.in_label = False

    def handle_data(self, data):
        if self.in_label:
            self.figs[-1]["labels"][-1] += data


def png_rgb(path):
    """(width, height, rows): rows of bytes, 3 per pixel."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or inter:
                raise ValueError("PNG kind %d/%d/%d not read" % (depth, ctype, inter))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif f == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        prev = line
        if bpp == 4:
            line = bytearray(b for k, b in enumerate(line) if k % 4 != 3)
        rows.append(bytes(line))
    return w, h, rows


def blocks(rows, rgb):
    """Blocks of colour rgb: {(x, width): rows} of identical runs."""
    pat = bytes(rgb)
    seen = {}
    for y, row in enumerate(rows):
        x, n = 0, len(row) // 3
        while x < n:
            if row[3 * x:3 * x + 3] != pat:
                x += 1
                continue
            s = x
            while x < n and row[3 * x:3 * x + 3] == pat:
                x += 1
            seen.setdefault((s, x - s), []).append(y)
    out = []
    for (s, width), ys in seen.items():
        # split the rows into vertically contiguous runs (a whisker line
        # drawn across a bar interrupts it for a row or two)
        start = prev = ys[0]
        for y in ys[1:] + [None]:
            if y is not None and y <= prev + 3:
                prev = y
                continue
            if prev - start + 1 >= 12:
                out.append(width)
            if y is not None:
                start = prev = y
    return sorted(out)


def main():
    run = json.load(open(sys.argv[1]))
    costs = run.get("costs") or []
    dom = Dom()
    dom.feed(open(sys.argv[2], encoding="utf-8").read())
    groups = [c["group"] for c in costs]
    if not costs:
        fail("run.json has no costs")
    if len(dom.figs) != 14:
        fail("%d figures, want 14" % len(dom.figs))
    drawn = {k: [] for k in FILLS}
    for fig in dom.figs:
        if fig["labels"] != groups:
            fail("%s: rows %s, want %s" % (fig["title"], fig["labels"], groups))
        scale = None
        for bar in fig["bars"]:
            drawn[bar["kind"]].append(bar["width"])
            v = abs(bar["value"])
            if v and scale is None and bar["width"] > 20:
                scale = bar["width"] / v
        for bar in fig["bars"]:
            if scale is not None and abs(abs(bar["value"]) * scale - bar["width"]) > 1:
                fail("%s: bar %s: width %d for value %g (%.4f px per unit)" %
                     (fig["title"], groups[bar["row"]], bar["width"],
                      bar["value"], scale))
        spec = FIGURES.get(fig["title"])
        if not spec:
            continue
        sec, member, key, div = spec
        for bar in fig["bars"]:
            c = costs[bar["row"]]
            o = c.get(sec) or {}
            o = o.get(member) if member else o
            want = (o or {}).get(key)
            if want is None or abs(want / div - bar["value"]) > 1e-6 * max(1, abs(want)):
                fail("%s: bar %s: data-value %g, run.json says %s" %
                     (fig["title"], groups[bar["row"]], bar["value"], want))
    w, h, rows = png_rgb(sys.argv[3])
    for kind, rgb in FILLS.items():
        want = sorted(x for x in drawn[kind] if x > 0)
        got = blocks(rows, rgb)
        if got != want:
            fail("screenshot: %s bars %s px wide, the DOM's are %s" % (kind, got, want))
    n = sum(len([x for x in v if x > 0]) for v in drawn.values())
    if not fails:
        print("ok: %d figures x %d groups; %d bars in the screenshot (%dx%d) "
              "as wide as their rectangles" % (len(dom.figs), len(groups), n, w, h))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
