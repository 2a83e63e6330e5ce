// swift-tools-version:6.3
import PackageDescription

// The example app code and its tests are a package of their own, in Examples/.
// The library stays dependency-free: Foundation (and FoundationNetworking on Linux) only.
// The CLI's module is named GramophoneCLI, not `gramophone`, because a module that differs
// from `Gramophone` only by case collides on case-insensitive file systems (macOS).
let package = Package(
    name: "Gramophone",
    // Swift 6.3 or later: the oldest compiler CI builds with. It has TestScoping (the .vinyl trait),
    // nonisolated(nonsending), SourceLocation.filePath, and the back-deployment fix for
    // nonisolated(nonsending) function metadata (swiftlang/swift#86852). macOS 13 / iOS 16 for
    // ContinuousClock and Duration.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        // What production code imports: the NetworkSession protocol and URLSession's conformance, nothing else.
        .library(name: "GramophoneSession", targets: ["GramophoneSession"]),
        // Turntable, vinyls, recording, stubbing, formats; re-exports GramophoneSession.
        .library(name: "Gramophone", targets: ["Gramophone"]),
        // Test helpers (a Swift Testing trait, an XCTest base class); link them from test targets only.
        .library(name: "GramophoneTesting", targets: ["GramophoneTesting"]),
        .executable(name: "gramophone", targets: ["GramophoneCLI"]),
    ],
    targets: [
        .target(name: "GramophoneSession"),
        .target(name: "Gramophone", dependencies: ["GramophoneSession"]),
        .executableTarget(name: "GramophoneCLI", dependencies: ["Gramophone"]),
        // Testing and XCTest come with the toolchain: no package dependency.
        .target(name: "GramophoneTesting", dependencies: ["Gramophone"]),
        // The child process KilledWriterTests kills mid-write; not a product.
        .executableTarget(name: "GramophoneWriterProbe", dependencies: ["Gramophone"], path: "Tests/GramophoneWriterProbe"),
        // The "app" LaunchEnvironmentTests launches with a UI test's environment; not a product.
        .executableTarget(name: "GramophoneLaunchProbe", dependencies: ["Gramophone"], path: "Tests/GramophoneLaunchProbe"),
        // What both test targets need (the local httpbin, temporary folders); not a product.
        .target(name: "GramophoneTestSupport", path: "Tests/GramophoneTestSupport"),
        .testTarget(
            name: "GramophoneTests",
            dependencies: ["Gramophone", "GramophoneWriterProbe", "GramophoneLaunchProbe", "GramophoneTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "GramophoneTestingTests",
            dependencies: ["GramophoneTesting", "GramophoneTestSupport"],
            resources: [.copy("Vinyls")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
