// The member names a fixture may use where they are fixed lists (the operations are in
// OperationSpec.mjs, the recipes in Interpreter/OptionsDecoder.mjs).
// Swift twin: Decoder/FixtureVocabulary.swift.

export const TOP_MEMBERS = ['format', 'id', 'title', 'source', 'client', 'functions', 'callbacks', 'streams', 'steps']
export const OUTCOME_MEMBERS = ['after', 'return', 'throw', 'reject', 'throwSync', 'readSignal', 'onAbort', 'times']
export const FILTER_MEMBERS = ['queryKey', 'exact', 'type', 'stale', 'fetchStatus', 'predicate']
export const MUTATION_HOOKS = ['onMutate', 'onSuccess', 'onError', 'onSettled']
export const MUTATION_STATUSES = ['idle', 'pending', 'success', 'error']
export const CALLBACK_OPS = ['cancelQueries', 'invalidateQueries', 'refetchQueries', 'getQueryData', 'setQueryData']
