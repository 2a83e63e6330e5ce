// Production code imports GramophoneSession alone: `URLSession`, `URLRequest`, `URL` and `Data`
// come with it, on Linux too, where the networking types live in FoundationNetworking; no
// `#if canImport(FoundationNetworking)` in every file that takes a `NetworkSession`.
@_exported import Foundation

#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
