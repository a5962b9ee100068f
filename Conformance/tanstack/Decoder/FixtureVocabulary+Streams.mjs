// The members of a fixture's scripted streams.
// Swift twin: Decoder/FixtureVocabulary+Streams.swift.

export const STREAM_MEMBERS = ['refetchMode', 'reducer', 'initialValue', 'outcomes']
export const STREAM_OUTCOME_MEMBERS = ['chunks', 'readSignal', 'times']
export const CHUNK_MEMBERS = ['after', 'value', 'throw']
