// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Parlor",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "parlor", targets: ["parlor"])
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
    ],
    targets: [
        // Debian's libwebsockets + OpenSSL, with static inline helpers for macros.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev", "libssl-dev"])]
        ),
        // OpenSSL's libcrypto for SHA-256, without the network library.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Debian's libpq for the PostgreSQL store (cluster mode).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // SQLite's default VFS with each WAL commit written in one system call.
        .target(name: "CWALBuffer", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The domain: validation, protocol codec, sessions, storage. No sockets.
        .target(
            name: "ParlorCore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                "CCrypto", "CLibPQ", "CWALBuffer",
            ]
        ),
        // Debian's NATS C client for the bus between cluster nodes.
        .systemLibrary(name: "CNats", pkgConfig: "libnats", providers: [.apt(["libnats-dev"])]),
        // Cluster mode's bus: what each node committed, to the others (NATS).
        .target(
            name: "ParlorCluster",
            dependencies: ["ParlorCore", "CNats", .product(name: "Logging", package: "swift-log")]
        ),
        // libwebsockets wrapper: the service thread, HTTP, WebSocket connections.
        .target(
            name: "ParlorServer",
            dependencies: [
                "ParlorCore", "CLibWebSockets",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .executableTarget(
            name: "parlor",
            dependencies: [
                "ParlorServer", "ParlorCore", "ParlorCluster",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ParlorCoreTests",
            dependencies: ["ParlorCore", "CWALBuffer", .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        // The live state without sockets.
        .testTarget(name: "ParlorServerTests", dependencies: ["ParlorServer", "ParlorCore"]),
    ],
    swiftLanguageModes: [.v6]
)
