// Tests import one module: `NetworkSession` (and URLSession's conformance) come with Gramophone.
// Production code imports GramophoneSession alone.
@_exported import GramophoneSession
