#!/usr/bin/env python3
"""Finds file names in comments and docs that name no file in the repository.

Files move (issue 35 moved every test into the folder of its capability); a comment or an
article that still points at `Turntable+Misses.swift` sends the reader looking for nothing.
This reads the Markdown files and the comments of Swift, shell and Python files that git
tracks, takes every word that names a source file (`Name.swift`, `name.py`, `name.sh`) or a path
into one of our top folders (`Sources/...`, `Tests/...`, `scripts/...`), and fails naming each one
that matches no tracked file. A name is found when a tracked path ends with it, so
`Recording/Recorder.swift` and `Recorder.swift` both find `Sources/Gramophone/Recording/Recorder.swift`.

Names of other projects' files (DVR's sources, files a user's package has) are listed in
ELSEWHERE below, each with where it lives.

    python3 scripts/lib/file_references.py    exit 0, or 1 with one line per dangling name
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Files that are not ours, named on purpose. Each: name -> where it is.
ELSEWHERE = {
    # DVR's sources (venmo/DVR), which the DVR migration guide and DVR format compare with.
    "Cassette.swift": "DVR", "Interaction.swift": "DVR", "Session.swift": "DVR",
    "SessionDataTask.swift": "DVR", "SessionUploadTask.swift": "DVR",
    "SessionDownloadTask.swift": "DVR",
    # The layering check beside the repository (ARCHITECTURE.md), as the developers' tools have it.
    "layers.py": "the shared tools beside the repository",
    # Files of the user's package in the docs' examples.
    "UsersTests.swift": "a user's package", "APIClient.swift": "a user's package",
    "MyAPITests.swift": "a user's package", "AppTests.swift": "a user's package",
    "openapi.yaml": "a user's package",
    # swift-corelibs-foundation, swift-build and the toolchain.
    "URLSessionTask.swift": "swift-corelibs-foundation", "NativeProtocol.swift": "swift-corelibs-foundation",
    "HTTPURLProtocol.swift": "swift-corelibs-foundation", "EasyHandle.swift": "swift-corelibs-foundation",
    "URLProtocol.swift": "swift-corelibs-foundation", "URLSessionWebSocketTask.swift": "swift-corelibs-foundation",
    "WebSocketURLProtocol.swift": "swift-corelibs-foundation",
    # A product's name, not a file.
    "VCR.py": "the Python library",
}

# A placeholder in a path (`Fuzz/Targets/TARGET.swift`), a build product, or a web address.
def placeholder(name):
    parts = name.split("/")
    return (any(re.fullmatch(r"[A-Z]{3,}", Path(p).stem) for p in parts) or ".build" in parts
            or "github.com" in name or "*" in name or "<" in name)

# A file name with one of our source endings, or a path into one of our top folders.
NAME = re.compile(r"(?<![\w/.+-])((?:[\w.+-]+/)*[\w+-]+(?:\.[\w+-]+)*\.(?:swift|py|sh))\b")
PATH = re.compile(r"(?<![\w/.+-])((?:Sources|Tests|scripts|Benchmarks|Fuzz|Examples)/[\w.+/-]*[\w+-])")
COMMENT = {".swift": re.compile(r"//(.*)$"), ".sh": re.compile(r"(?:^|\s)#(.*)$"), ".py": re.compile(r"(?:^|\s)#(.*)$")}


def tracked():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [p for p in out.decode().split("\0") if p]


def texts(path):
    """The lines of a file that are prose: all of a Markdown file, the comments of code."""
    suffix = Path(path).suffix
    try:
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    except (UnicodeDecodeError, FileNotFoundError):
        return
    for number, line in enumerate(lines, 1):
        if suffix == ".md":
            yield number, line
        elif suffix in COMMENT:
            match = COMMENT[suffix].search(line)
            if match:
                yield number, match.group(1)


def main():
    files = tracked()
    # Folders count too: a path may name one (`Sources/Gramophone/Secrets`).
    known = set(files)
    for f in files:
        parts = f.split("/")
        known.update("/".join(parts[:i]) for i in range(1, len(parts)))
    suffixes = {}
    for f in known:
        parts = f.split("/")
        for i in range(len(parts)):
            suffixes.setdefault("/".join(parts[i:]), True)
    dangling = []
    for path in files:
        if not path.endswith((".md", ".swift", ".sh", ".py")) or path.startswith(("Fuzz/Corpus", ".build")):
            continue
        for number, text in texts(path):
            for pattern in (NAME, PATH):
                for match in pattern.finditer(text):
                    name = match.group(1).rstrip(".")
                    if placeholder(name) or name in ELSEWHERE or Path(name).name in ELSEWHERE:
                        continue
                    # A path whose top two folders are not ours is a user's package in an example
                    # (`Tests/MyAPITests/Vinyls/users.json`).
                    top = name.split("/")
                    if top[0] in ("Sources", "Tests") and "/".join(top[:2]) not in known:
                        continue
                    if name not in suffixes:
                        dangling.append(f"{path}:{number}: names {name}, which is no file or folder here")
    for line in sorted(set(dangling)):
        print(line)
    if dangling:
        print(f"{len(set(dangling))} dangling file names: point them at the file as it is now, or add a "
              "file of another project to ELSEWHERE in scripts/lib/file_references.py", file=sys.stderr)
        return 1
    print(f"file references: every file name in {len(files)} tracked files' comments and docs names a file here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
