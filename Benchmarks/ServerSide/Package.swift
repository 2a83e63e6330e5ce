// swift-tools-version:6.3
import PackageDescription

// Issue 29's benchmark, a package of its own so neither the library nor the main benchmark
// package builds AsyncHTTPClient: AHC replay through a Turntable beside a bare HTTPClient to the
// local httpbin, and beside the Turntable's data(for:). `Gramophone` links to the repository root.
let package = Package(
    name: "ServerSideBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "Gramophone", traits: ["AsyncHTTPClient"]),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .executableTarget(
            name: "ServerSideBench",
            dependencies: [
                .product(name: "Gramophone", package: "Gramophone"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
