#!/usr/bin/env python3
"""Every public symbol of the given modules has a doc comment of its own.

Reads the symbol graphs `swift build -emit-symbol-graph` wrote into DIR and lists each public
symbol (in MODULE.symbols.json and MODULE@Other.symbols.json, i.e. extensions too) that has no
doc comment. A symbol that implements a protocol requirement or overrides a superclass member
without one inherits the documentation of what it implements, as DocC shows it, so it passes;
so do enum cases' synthesized members and compiler-made symbols.

usage: doc_coverage.py DIR MODULE [MODULE ...]   exits 1 and lists what is undocumented.
"""
import glob
import json
import os
import sys


def main():
    folder, modules = sys.argv[1], sys.argv[2:]
    missing = []
    for module in modules:
        files = [os.path.join(folder, f"{module}.symbols.json")] + glob.glob(os.path.join(folder, f"{module}@*.symbols.json"))
        for path in files:
            if not os.path.exists(path):
                continue
            graph = json.load(open(path))
            inherits = set()
            for rel in graph.get("relationships", []):
                if rel["kind"] in ("requirementOf", "optionalRequirementOf"):
                    continue
                if rel["kind"] in ("defaultImplementationOf", "overrides"):
                    inherits.add(rel["source"])
            # A member that satisfies a protocol's requirement (Codable's init(from:), Equatable's ==,
            # CustomStringConvertible's description) is shown with that requirement's documentation.
            requirement_names = {"init(from:)", "encode(to:)", "==(_:_:)", "hash(into:)", "description",
                                 "debugDescription", "hashValue", "init(rawValue:)", "rawValue",
                                 "makeIterator()", "next()", "init(arrayLiteral:)", "init(stringLiteral:)",
                                 "init(dictionaryLiteral:)", "init(integerLiteral:)", "init(floatLiteral:)",
                                 "init(booleanLiteral:)", "init(extendedGraphemeClusterLiteral:)",
                                 "init(unicodeScalarLiteral:)", "errorDescription", "allCases", "id",
                                 "<(_:_:)", "callAsFunction(_:)", "provideScope(for:testCase:performing:)",
                                 "prepare(for:)", "scopeProvider(for:testCase:)", "isRecursive", "comments"}
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if symbol.get("docComment"):
                    continue
                if symbol["identifier"]["precise"] in inherits:
                    continue
                name = symbol["pathComponents"][-1]
                if name in requirement_names:
                    continue
                where = symbol.get("location", {})
                file = where.get("uri", "").replace("file://", "")
                line = where.get("position", {}).get("line", -1) + 1
                missing.append(f"{os.path.relpath(file) if file else module}:{line}: {'.'.join(symbol['pathComponents'])} ({symbol['kind']['displayName']}) has no doc comment")
    for line in sorted(set(missing)):
        print(line)
    if missing:
        print(f"{len(set(missing))} public symbols without documentation", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
