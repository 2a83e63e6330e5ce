// swift-tools-version:6.3
import PackageDescription

// The benchmarks live in their own package so the Gramophone library keeps no dependencies.
// ordo-one/benchmark needs its MallocInterposer trait for the allocation counts.
let package = Package(
    name: "GramophoneBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "Gramophone"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // mallinfo2 is not in Swift's Glibc module: a two-line C target reads it.
        .target(name: "HeapStats"),
        .target(name: "BenchFixtures", dependencies: [.product(name: "Gramophone", package: "Gramophone")]),
        // Runs outside the benchmark harness (no malloc interposer): heap retained by a loaded
        // vinyl, and small workloads to profile under callgrind.
        // Serves the workloads to scripts/bench-compare, which runs two commits' builds in turn.
        .executableTarget(name: "GramophoneBenchCompare", dependencies: ["BenchFixtures", .product(name: "Gramophone", package: "Gramophone")]),
        .executableTarget(name: "GramophoneBenchDriver", dependencies: ["BenchFixtures", "HeapStats", .product(name: "Gramophone", package: "Gramophone")]),
        .executableTarget(
            name: "GramophoneBenchmarks",
            dependencies: [
                .product(name: "Gramophone", package: "Gramophone"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchFixtures",
            ],
            path: "Benchmarks/GramophoneBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
