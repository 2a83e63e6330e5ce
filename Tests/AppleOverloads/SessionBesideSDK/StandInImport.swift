// GramophoneSession's own sources (the links beside this file), compiled once more with the
// stand-in of Apple's URLSession methods visible, as the SDK makes them visible on Apple
// platforms: URLSession's conformance to NetworkSession must still resolve (each requirement
// has one best witness) where the SDK has methods of the same signatures. Not a product.
@_exported import AppleSDKStandIn
