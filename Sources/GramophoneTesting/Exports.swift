// Tests import one module: `Turntable`, `Vinyl`, `Stub`… (and, through Gramophone,
// GramophoneSession and Foundation) come with the test helpers.
@_exported import Gramophone
