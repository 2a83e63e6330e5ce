// swift-tools-version:6.0
import PackageDescription

// The library stays dependency-free: Foundation (and FoundationNetworking on Linux) only.
// The CLI's module is named GramophoneCLI, not `gramophone`, because a module that differs
// from `Gramophone` only by case collides on case-insensitive file systems (macOS).
let package = Package(
    name: "Gramophone",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "Gramophone", targets: ["Gramophone"]),
        .executable(name: "gramophone", targets: ["GramophoneCLI"]),
    ],
    targets: [
        .target(name: "Gramophone"),
        .executableTarget(name: "GramophoneCLI", dependencies: ["Gramophone"]),
        // The child process KilledWriterTests kills mid-write; not a product.
        .executableTarget(name: "GramophoneWriterProbe", dependencies: ["Gramophone"], path: "Tests/GramophoneWriterProbe"),
        .testTarget(
            name: "GramophoneTests",
            dependencies: ["Gramophone", "GramophoneWriterProbe"],
            resources: [.copy("Resources")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
