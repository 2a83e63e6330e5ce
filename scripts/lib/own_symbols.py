#!/usr/bin/env python3
"""Keeps, in the symbol graphs a build wrote, only the symbols each module documents.

`@_exported import` puts the re-exported module's symbols into the re-exporting module's graph
when the graph is written during a build: GramophoneSession re-exports Foundation (and
FoundationNetworking on Linux) so production code needs one import, and GramophoneTesting
re-exports Gramophone, which would put all of Foundation (about 19,000 symbols) into every
catalog and Gramophone's symbols, with links to Gramophone's articles, into GramophoneTesting's.
A module's documentation keeps the symbols declared in its own sources, and Gramophone also
those of GramophoneSession, which it has always re-exported and documented.

usage: own_symbols.py ROOT DIR   (rewrites DIR/MODULE.symbols.json and DIR/MODULE@*.symbols.json)
"""
import glob
import json
import os
import sys

DOCUMENTED = {
    "GramophoneSession": ["GramophoneSession"],
    "Gramophone": ["Gramophone", "GramophoneSession"],
    "GramophoneTesting": ["GramophoneTesting"],
}


def main():
    root, folder = os.path.abspath(sys.argv[1]), sys.argv[2]
    for module, sources in DOCUMENTED.items():
        prefixes = tuple("file://" + os.path.join(root, "Sources", source) + "/" for source in sources)
        for path in [os.path.join(folder, f"{module}.symbols.json")] + glob.glob(os.path.join(folder, f"{module}@*.symbols.json")):
            if not os.path.exists(path):
                continue
            graph = json.load(open(path))
            symbols = graph.get("symbols", [])
            kept = [s for s in symbols if s.get("location", {}).get("uri", "").startswith(prefixes)]
            if len(kept) == len(symbols):
                continue
            dropped = {s["identifier"]["precise"] for s in symbols} - {s["identifier"]["precise"] for s in kept}
            graph["symbols"] = kept
            graph["relationships"] = [r for r in graph.get("relationships", []) if r["source"] not in dropped and r["target"] not in dropped]
            if kept:
                json.dump(graph, open(path, "w"))
            else:
                os.remove(path)


if __name__ == "__main__":
    main()
