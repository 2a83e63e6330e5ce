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
        // What production code imports: the NetworkSession protocol, URLSession's conformance and the
        // types its methods hand out (tasks, ResponseBytes, events, WebSocketTask); no Turntable, no vinyls.
        .library(name: "GramophoneSession", targets: ["GramophoneSession"]),
        // Turntable, vinyls, recording, stubbing, formats; re-exports GramophoneSession.
        .library(name: "Gramophone", targets: ["Gramophone"]),
        // Test helpers (a Swift Testing trait, an XCTest base class); link them from test targets only.
        .library(name: "GramophoneTesting", targets: ["GramophoneTesting"]),
        .executable(name: "gramophone", targets: ["GramophoneCLI"]),
    ],
    // Server-side Swift, both off by default: a package that enables neither resolves no dependency,
    // because every reference to these packages below is guarded by its trait.
    traits: [
        .trait(name: "AsyncHTTPClient", description: "HTTPClientSession: AsyncHTTPClient's HTTPClient and the Turntable replay, record and stub the same vinyls."),
        .trait(name: "OpenAPI", description: "The Turntable as an OpenAPI ClientTransport, so a generated Client runs on it."),
        .trait(
            name: "WebSocket",
            description: "Recording WebSocket conversations where URLSession cannot open them (Linux), through swift-websocket's WSClient."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Tests only: the URLSession transport, to replay one vinyl through both OpenAPI transports.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "GramophoneSession",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            ]
        ),
        .target(
            name: "Gramophone",
            dependencies: [
                "GramophoneSession",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient", "WebSocket"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI", "WebSocket"])),
                .product(name: "WSClient", package: "swift-websocket", condition: .when(traits: ["WebSocket"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["WebSocket"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["WebSocket"])),
            ]
        ),
        .executableTarget(name: "GramophoneCLI", dependencies: ["Gramophone"]),
        // Testing and XCTest come with the toolchain: no package dependency.
        .target(name: "GramophoneTesting", dependencies: ["Gramophone"]),
        // The child process KilledWriterTests kills mid-write; not a product.
        .executableTarget(name: "GramophoneWriterProbe", dependencies: ["Gramophone"], path: "Tests/GramophoneWriterProbe"),
        // The "app" LaunchEnvironmentTests launches with a UI test's environment; not a product.
        .executableTarget(name: "GramophoneLaunchProbe", dependencies: ["Gramophone"], path: "Tests/GramophoneLaunchProbe"),
        // Apple's URLSession overloads on Linux, and two app-like modules that call them beside
        // Gramophone's: `swift build` fails here on a clash an app would hit on Apple platforms
        // (Gramophone.docc/Platforms.md). Built, never linked into anything; not products.
        .target(name: "AppleSDKStandIn", path: "Tests/AppleOverloads/AppleSDKStandIn"),
        .target(name: "AppleOverloadsSessionApp", dependencies: ["GramophoneSession", "AppleSDKStandIn"], path: "Tests/AppleOverloads/SessionApp"),
        .target(name: "AppleOverloadsGramophoneApp", dependencies: ["Gramophone", "AppleSDKStandIn"], path: "Tests/AppleOverloads/GramophoneApp"),
        .target(
            name: "AppleOverloadsSessionBesideSDK",
            dependencies: [
                "AppleSDKStandIn",
                // As GramophoneSession's: the same files, compiled with the same traits.
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            path: "Tests/AppleOverloads/SessionBesideSDK"
        ),
        // What both test targets need (the local httpbin, temporary folders); not a product.
        .target(name: "GramophoneTestSupport", path: "Tests/GramophoneTestSupport"),
        .testTarget(
            name: "GramophoneTests",
            dependencies: [
                "Gramophone", "GramophoneWriterProbe", "GramophoneLaunchProbe", "GramophoneTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient", "WebSocket"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
            ],
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
