#!/usr/bin/env python3
"""Turns every ```swift block of README.md and the DocC articles into code the compiler checks.

usage: doc_snippets.py ROOT OUT

Writes a package into OUT with one test target per block (test targets, so `import XCTest` and
`import Testing` work on every platform), depending on Gramophone and on the Examples package's
`UsersClient` (the `User`/`UsersClient` the docs talk about). Package-manifest blocks are written
as manifests of their own under OUT/manifests/N/ for `swift package dump-package`.

A block is compiled as written, with exactly the imports it shows: no hidden prelude, so a
block that pastes into an empty file compiles there. Except that:
- top-level items that are not declarations (statements, `let`s) go, in order, into an
  `async throws` function, and `import`s move to the top of the file;
- a block that continues another (below) has that block's imports too: it is the same file.
A block that uses the docs' running example (`UsersClient`, `User`: Examples/) imports it as
`import UsersClient`, as a test target of the Examples package does.
- an HTML comment on the line before the fence changes how it is checked:
    <!-- snippet: continues -->        same target as the block before (it uses its declarations)
    <!-- snippet: apple-only -->       compiled only where XCUIApplication exists (macOS, iOS)
    <!-- snippet: manifest -->         a Package.swift fragment (`dependencies: …, targets: …` or a
                                       target), checked with `swift package dump-package`
    <!-- snippet: other-library X -->  code written against library X (a migration guide's
                                       "before"), not Gramophone: listed, not compiled
    <!-- snippet: generated X -->      calls code generator X writes from the user's own spec (a
                                       generated OpenAPI `Client`): listed, not compiled; what it
                                       calls on Gramophone is compiled in a block of its own
    <!-- snippet: traits A B -->        needs Gramophone's package traits A, B (AsyncHTTPClient,
                                       OpenAPI): compiled in a second package, OUT/traits, that
                                       enables them and can import the libraries they bring
Prints one line per block (where it is, how it is checked).
"""
import json
import os
import re
import shutil
import sys

FENCE = re.compile(r"^```swift[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARKER = re.compile(r"<!--\s*snippet:\s*([a-z-]+)\s*(.*?)\s*-->")
DECLARATION = re.compile(
    r"^(import|@|struct|final|class|enum|extension|protocol|func|actor|typealias|public|private|"
    r"fileprivate|internal|nonisolated|#if|#else|#elseif|#endif)\b")


def documents(root):
    paths = [os.path.join(root, "README.md")]
    sources = os.path.join(root, "Sources")
    for module in sorted(os.listdir(sources)):
        for entry in sorted(os.listdir(os.path.join(sources, module))):
            if entry.endswith(".docc"):
                catalog = os.path.join(sources, module, entry)
                paths += [os.path.join(catalog, f) for f in sorted(os.listdir(catalog)) if f.endswith(".md")]
    return paths


def blocks(path):
    text = open(path, encoding="utf-8").read()
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[:match.start()].rstrip("\n").split("\n")
        marker = MARKER.search(before[-1]) if before else None
        kind, argument = (marker.group(1), marker.group(2)) if marker else ("compile", "")
        if kind not in ("compile", "continues", "apple-only", "manifest", "other-library", "generated", "traits"):
            sys.exit(f"{path}:{line}: unknown snippet marker '{kind}'")
        if kind in ("other-library", "generated", "traits") and not argument:
            sys.exit(f"{path}:{line}: '{kind}' names the library or the traits the block is written for")
        yield line, kind, argument, match.group(1)


def items(code):
    """Top-level items: a line at column 0 and the indented or closing lines after it."""
    current = []
    for raw in code.split("\n"):
        starts_item = raw and not raw[0].isspace() and not raw.startswith(("}", ")", "]", "//", "."))
        if starts_item and current:
            yield "\n".join(current)
            current = []
        current.append(raw)
    if any(line.strip() for line in current):
        yield "\n".join(current)


def block_imports(code):
    """The imports a block shows."""
    return [item.strip() for item in items(code) if item.lstrip("\n").startswith("import ")]


def swift_file(code, index, apple_only, inherited=()):
    imports, declarations, statements = [], [], []
    for item in items(code):
        head = item.lstrip("\n")
        if head.startswith("import "):
            imports.append(head.strip())
        elif DECLARATION.match(head) or not head.strip() or head.startswith("//"):
            declarations.append(item)
        else:
            statements.append(item)
    imports = list(dict.fromkeys(list(inherited) + imports))
    body = "\n".join(declarations)
    if statements:
        inner = "\n".join("    " + line if line else line for line in "\n".join(statements).split("\n"))
        body += f"\n\n@MainActor\nfunc snippet{index}() async throws {{\n{inner}\n}}\n"
    text = "\n".join(imports) + "\n\n" + body + "\n"
    if apple_only:
        text = "#if canImport(XCTest) && (os(macOS) || os(iOS))\n" + text + "#endif\n"
    return text


def manifest(code):
    fragment = code.strip()
    if fragment.startswith("// Package.swift"):
        fragment = fragment.split("\n", 1)[1].strip()
    if fragment.startswith(("platforms:", "dependencies:", "targets:", "products:")):
        arguments = fragment.rstrip(",")
    else:
        # A target on its own: give it the package it names and the plain targets it depends on.
        names = sorted(set(re.findall(r'(?:\[|,)\s*"(\w+)"\s*(?=[,\]])', fragment)))
        others = "".join(f",\n.target(name: \"{name}\")" for name in names)
        arguments = ("dependencies: [.package(url: \"https://github.com/gramophone-swift/Gramophone.git\", from: \"1.0.0\")],\n"
                     f"targets: [\n{fragment.rstrip(',')}{others}\n]")
    return ("// swift-tools-version:6.3\nimport PackageDescription\n\n"
            f"let package = Package(\n    name: \"ManifestSnippet\",\n{arguments}\n)\n")


# What each trait's blocks may import: the products of the packages the trait brings.
TRAIT_PRODUCTS = {
    "AsyncHTTPClient": [("https://github.com/swift-server/async-http-client", "1.37.0", "async-http-client", ["AsyncHTTPClient"]),
                        ("https://github.com/apple/swift-nio", "2.101.2", "swift-nio", ["NIOCore", "NIOHTTP1"])],
    "OpenAPI": [("https://github.com/apple/swift-openapi-runtime", "1.13.4", "swift-openapi-runtime", ["OpenAPIRuntime"]),
                ("https://github.com/apple/swift-http-types", "1.8.0", "swift-http-types", ["HTTPTypes"])],
}


def trait_package(root, targets, traits):
    """The package the `traits` blocks compile in: Gramophone with those traits on."""
    packages = [p for trait in traits for p in TRAIT_PRODUCTS[trait]]
    dependencies = [f".package(name: \"Gramophone\", path: {json.dumps(root)}, traits: {json.dumps(traits)})"]
    dependencies += [f".package(url: \"{url}\", from: \"{version}\")" for url, version, _, _ in packages]
    products = [".product(name: \"Gramophone\", package: \"Gramophone\")", ".product(name: \"GramophoneTesting\", package: \"Gramophone\")"]
    products += [f".product(name: \"{product}\", package: \"{name}\")" for _, _, name, names in packages for product in names]
    lines = ["// swift-tools-version:6.3", "import PackageDescription", "",
             "// Generated by scripts/lib/doc_snippets.py: the blocks that need Gramophone's package traits.",
             "let package = Package(", "    name: \"DocTraitSnippets\",",
             "    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],",
             "    dependencies: [" + ", ".join(dependencies) + "],", "    targets: ["]
    lines += [f"        .testTarget(name: \"{target}\", dependencies: [{', '.join(products)}])," for target in targets]
    lines += ["    ],", "    swiftLanguageModes: [.v6]", ")", ""]
    return "\n".join(lines)


def main():
    root, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    targets, manifests, report = [], 0, []
    trait_targets, traits = [], set()
    previous = None
    for path in documents(root):
        relative = os.path.relpath(path, root)
        for line, kind, argument, code in blocks(path):
            where = f"{relative}:{line}"
            if kind == "other-library":
                report.append(f"{where}: written for {argument}, not compiled")
                continue
            if kind == "generated":
                report.append(f"{where}: calls code {argument} generates, not compiled")
                continue
            if kind == "manifest":
                manifests += 1
                folder = os.path.join(out, "manifests", str(manifests))
                os.makedirs(folder)
                open(os.path.join(folder, "Package.swift"), "w").write(manifest(code))
                report.append(f"{where}: manifest, checked with dump-package (manifests/{manifests})")
                continue
            if kind == "traits":
                unknown = set(argument.split()) - set(TRAIT_PRODUCTS)
                if unknown:
                    sys.exit(f"{where}: unknown trait(s) {sorted(unknown)}; known: {sorted(TRAIT_PRODUCTS)}")
                traits.update(argument.split())
                target = f"TraitSnippet{len(trait_targets) + 1}"
                trait_targets.append(target)
                os.makedirs(os.path.join(out, "traits", "Tests", target))
                name = f"{os.path.splitext(os.path.basename(relative))[0]}_{line}.swift"
                open(os.path.join(out, "traits", "Tests", target, name), "w").write(f"// {where}\n" + swift_file(code, len(report) + 1, False))
                report.append(f"{where}: compiled in traits/{target} with traits {argument}")
                previous = None
                continue
            inherited = []
            if kind == "continues":
                if previous is None or previous[0] != relative:
                    sys.exit(f"{where}: 'continues' needs a compiled block before it in the same file")
                target, inherited = previous[1], previous[2]
            else:
                target = f"Snippet{len(targets) + 1}"
                targets.append(target)
                os.makedirs(os.path.join(out, "Tests", target, "Vinyls"))
                # A resource folder, so `.bundle(.module)` in a block has a `Bundle.module` to name.
                open(os.path.join(out, "Tests", target, "Vinyls", "README"), "w").write("resources for .bundle(.module)\n")
            name = f"{os.path.splitext(os.path.basename(relative))[0]}_{line}.swift"
            open(os.path.join(out, "Tests", target, name), "w").write(
                f"// {where}\n" + swift_file(code, len(report) + 1, kind == "apple-only", inherited))
            report.append(f"{where}: compiled in {target}{' (apple-only)' if kind == 'apple-only' else ''}")
            previous = (relative, target, list(dict.fromkeys(inherited + block_imports(code))))
    package = ["// swift-tools-version:6.3", "import PackageDescription", "",
               "// Generated by scripts/lib/doc_snippets.py from README.md and the DocC articles.",
               "let package = Package(",
               "    name: \"DocSnippets\",",
               "    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],",
               f"    dependencies: [.package(name: \"Gramophone\", path: {json.dumps(root)}),",
               f"                   .package(name: \"GramophoneExamples\", path: {json.dumps(os.path.join(root, 'Examples'))})],",
               "    targets: ["]
    for target in targets:
        package.append(f"        .testTarget(name: \"{target}\", dependencies: [.product(name: \"Gramophone\", package: \"Gramophone\"), "
                       f".product(name: \"GramophoneTesting\", package: \"Gramophone\"), .product(name: \"GramophoneSession\", package: \"Gramophone\"), .product(name: \"UsersClient\", package: \"GramophoneExamples\")], "
                       f"resources: [.copy(\"Vinyls\")]),")
    package += ["    ],", "    swiftLanguageModes: [.v6]", ")", ""]
    open(os.path.join(out, "Package.swift"), "w").write("\n".join(package))
    if trait_targets:
        open(os.path.join(out, "traits", "Package.swift"), "w").write(trait_package(root, trait_targets, sorted(traits)))
    print("\n".join(report))
    print(f"{len(report)} blocks: {len(targets)} targets, {manifests} manifests, "
          f"{sum(1 for r in report if 'written for' in r)} written for other libraries, "
          f"{sum(1 for r in report if 'generates, not compiled' in r)} calling generated code")


if __name__ == "__main__":
    main()
