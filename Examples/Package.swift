// swift-tools-version:6.3
import PackageDescription

// The example network layer the README shows, as an app would have it: the client depends on
// GramophoneSession alone; only its tests depend on Gramophone and GramophoneTesting.
let package = Package(
    name: "GramophoneExamples",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "UsersClient", targets: ["UsersClient"])],
    dependencies: [.package(name: "Gramophone", path: "..")],
    targets: [
        .target(name: "UsersClient", dependencies: [.product(name: "GramophoneSession", package: "Gramophone")]),
        .testTarget(
            name: "UsersClientTests",
            dependencies: ["UsersClient", .product(name: "Gramophone", package: "Gramophone"), .product(name: "GramophoneTesting", package: "Gramophone")],
            resources: [.copy("Vinyls")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
