import Quarry
import Foundation
@testable import QuarryScenarios

/// Valid fixture texts shared by the tests (each decodes as `<id>.json`).
enum SampleFixtures {
  /// The README's example.
  static let dedup = #"""
    {
      "format": 1,
      "id": "dedup-001",
      "title": "concurrent fetches of one key share a single call",
      "client": { "defaultOptions": { "queries": { "retry": 0 } } },
      "functions": {
        "todos": [ { "after": 100, "return": ["buy milk"] } ]
      },
      "steps": [
        { "at": 0,   "fetchQuery": { "queryKey": ["todos"], "queryFn": "todos" }, "as": "a" },
        { "at": 10,  "fetchQuery": { "queryKey": ["todos"], "queryFn": "todos" }, "as": "b" },
        { "at": 100, "expect": {
            "calls": { "todos": 1 },
            "settled": { "a": { "value": ["buy milk"] }, "b": { "value": ["buy milk"] } },
            "query": { "queryKey": ["todos"], "status": "success", "fetchStatus": "idle" } } }
      ]
    }
    """#

  /// A fixture touching most operations, recipes and checks.
  static let tour = #"""
    {
      "format": 1,
      "id": "tour-001",
      "title": "a tour of every operation",
      "source": "queryClient.test.tsx: \"tour\"",
      "client": { "defaultOptions": { "queries": { "retry": 0, "gcTime": "Infinity" }, "mutations": { "retry": false } }, "mutationCache": { "onError": "log" } },
      "functions": {
        "todos": [
          { "after": 10, "return": { "$fn": "queryKey" }, "times": 2 },
          { "throw": "boom", "readSignal": true },
          { "return": { "$fn": "callCount" }, "times": "forever" }
        ],
        "user": [ { "return": { "$undefined": true } } ],
        "add": [ { "after": 5, "return": { "$fn": "variables" }, "times": "forever" } ]
      },
      "callbacks": {
        "log": {},
        "optimistic": {
          "do": [
            { "cancelQueries": { "filters": { "queryKey": ["list"] } }, "await": true },
            { "getQueryData": { "queryKey": ["list"] }, "as": "previous" },
            { "setQueryData": { "queryKey": ["list"], "updater": { "$fn": "append", "value": { "$ref": "variables" } } } }
          ],
          "return": { "previous": { "$ref": "previous" } }
        },
        "fail": { "async": true, "throw": "no" }
      },
      "steps": [
        { "setQueryDefaults": { "queryKey": ["todos"], "options": { "staleTime": "static" } } },
        { "fetchQuery": { "queryKey": ["todos", 1], "queryFn": "todos", "staleTime": "Infinity", "retry": { "$fn": "failureCountLessThan", "n": 2 }, "retryDelay": { "$fn": "linear", "ms": 10 } }, "as": "f" },
        { "prefetchQuery": { "queryKey": ["todos", 2], "queryFn": "todos" }, "as": "p" },
        { "ensureQueryData": { "queryKey": ["user"], "queryFn": "user", "revalidateIfStale": true }, "as": "e" },
        { "at": 5, "getQueryData": { "queryKey": ["todos", 1] }, "as": "d" },
        { "getQueryState": { "queryKey": ["todos", 1] }, "as": "s" },
        { "setQueryData": { "queryKey": ["count"], "updater": { "$fn": "increment", "by": 2 }, "updatedAt": 3 }, "as": "c" },
        { "setQueryData": { "queryKey": ["list"], "data": [1, 2, { "$undefined": true }] } },
        { "getQueriesData": { "filters": { "queryKey": ["todos"] } }, "as": "qd" },
        { "setQueriesData": { "filters": { "queryKey": ["list"], "exact": true }, "updater": { "$fn": "append", "value": 3 } } },
        { "invalidateQueries": { "filters": { "queryKey": ["todos"], "refetchType": "none" }, "options": { "cancelRefetch": false } }, "as": "i" },
        { "refetchQueries": { "filters": { "type": "active", "stale": true } }, "as": "r" },
        { "cancelQueries": { "filters": { "fetchStatus": "fetching" }, "options": { "revert": true, "silent": true } }, "as": "x" },
        { "resetQueries": {}, "as": "rs" },
        { "removeQueries": { "filters": { "predicate": { "$fn": "keyIncludes", "value": 2 } } } },
        { "isFetching": {}, "as": "n" },
        { "find": { "filters": { "queryKey": ["todos", 1], "exact": true } }, "as": "fd" },
        { "findAll": {}, "as": "fa" },
        { "observe": { "observer": "o", "options": { "queryKey": ["todos", 1], "queryFn": "todos", "select": { "$fn": "pluck", "key": 0 }, "placeholderData": { "$fn": "previousData" }, "notifyOnChangeProps": ["data", "error"], "refetchOnWindowFocus": "always", "refetchInterval": false, "networkMode": "always", "meta": { "a": 1 } } }, "as": "first" },
        { "createObserver": { "observer": "q", "options": { "queryKey": ["skip"], "queryFn": "$skipToken", "enabled": { "$fn": "const", "value": false } } } },
        { "subscribe": { "observer": "q" } },
        { "setOptions": { "observer": "q", "options": { "queryKey": ["skip"], "enabled": true, "initialData": 5, "initialDataUpdatedAt": 1 } } },
        { "refetch": { "observer": "o", "options": { "throwOnError": false } }, "as": "rf" },
        { "getCurrentResult": { "observer": "o" }, "as": "cr" },
        { "getOptimisticResult": { "observer": "q", "options": { "queryKey": ["skip"], "select": { "$fn": "throw", "message": "nope" } } }, "as": "or" },
        { "fetchInfiniteQuery": { "queryKey": ["pages"], "queryFn": "todos", "initialPageParam": 0, "getNextPageParam": { "$fn": "paramPlus", "by": 1, "until": 3 }, "getPreviousPageParam": { "$fn": "pageField", "key": "prev" }, "maxPages": 2, "pages": 2 }, "as": "fi" },
        { "prefetchInfiniteQuery": { "queryKey": ["pages"], "queryFn": "todos", "initialPageParam": 0, "getNextPageParam": { "$fn": "const", "value": null } }, "as": "pi" },
        { "ensureInfiniteQueryData": { "queryKey": ["pages"], "queryFn": "todos", "initialPageParam": 0, "getNextPageParam": { "$fn": "const", "value": null }, "revalidateIfStale": true }, "as": "ei" },
        { "observeInfinite": { "observer": "inf", "options": { "queryKey": ["pages"], "queryFn": "todos", "initialPageParam": 0, "getNextPageParam": { "$fn": "paramPlus", "by": 1, "until": 3 } } }, "as": "ir" },
        { "createInfiniteObserver": { "observer": "inf2", "options": { "queryKey": ["pages"], "initialPageParam": 0, "getNextPageParam": { "$fn": "const", "value": null } } } },
        { "fetchNextPage": { "observer": "inf", "options": { "cancelRefetch": false } }, "as": "np" },
        { "fetchPreviousPage": { "observer": "inf" }, "as": "pp" },
        { "observeQueries": { "observer": "qs", "queries": [ { "queryKey": ["todos", 1] } ], "options": { "combine": { "$fn": "pluckAll", "key": "data" } } }, "as": "qr" },
        { "createQueriesObserver": { "observer": "qs2", "queries": [] } },
        { "setQueries": { "observer": "qs", "queries": [ { "queryKey": ["todos", 1] }, { "queryKey": ["user"] } ], "options": { "combine": { "$fn": "countCalls" } } } },
        { "getQueriesOptimisticResult": { "observer": "qs", "queries": [ { "queryKey": ["user"] } ], "options": { "combine": { "$fn": "length" } } }, "as": "qo" },
        { "dehydrate": { "options": { "shouldDehydrateQuery": { "$fn": "const", "value": true }, "serializeData": { "$fn": "wrap", "key": "v" } } }, "as": "snapshot" },
        { "hydrate": { "from": "snapshot", "options": { "deserializeData": { "$fn": "pluck", "key": "v" } } } },
        { "hydrate": { "state": { "queries": [], "mutations": [] } } },
        { "newClient": {} },
        { "setStorage": { "quota": 100000, "items": {} } },
        { "persistClient": { "throttleTime": 0, "maxAge": 1000, "buster": "", "retry": "removeOldestQuery" }, "as": "restored" },
        { "unpersist": {} },
        { "setFocused": { "focused": false } },
        { "setOnline": { "online": true } },
        { "unsubscribe": { "observer": "o" } },
        { "setMutationDefaults": { "mutationKey": ["add"], "options": { "mutationFn": "add", "retry": 1, "scope": { "id": "s" } } } },
        { "mutate": { "options": { "mutationKey": ["add"], "onMutate": "optimistic", "onError": "log", "gcTime": 10 }, "variables": 4 }, "as": "mu" },
        { "observeMutation": { "observer": "mo", "options": { "mutationFn": "add", "onSettled": "fail" } }, "as": "mr" },
        { "createMutationObserver": { "observer": "mc", "options": {} } },
        { "mutate": { "observer": "mo", "variables": "x", "mutateOptions": { "onSuccess": "log" } }, "as": "mm" },
        { "setOptions": { "observer": "mo", "options": { "mutationFn": "add", "meta": { "b": 2 } } } },
        { "reset": { "observer": "mc" } },
        { "resumePausedMutations": {}, "as": "rp" },
        { "isMutating": { "filters": { "mutationKey": ["add"], "exact": true, "status": "pending" } }, "as": "im" },
        { "findMutation": { "filters": { "mutationKey": ["add"] } }, "as": "fm" },
        { "findAllMutations": {}, "as": "fam" },
        { "at": 100, "expect": {
            "calls": { "todos": 2, "user": 1 },
            "query": { "queryKey": ["gone"], "exists": false },
            "queries": [ { "queryKey": ["todos", 1], "data": ["todos", 1], "isInvalidated": true } ],
            "result": { "o": { "data": "todos", "isStale": false } },
            "notifications": { "o": 2, "q": 0 },
            "settled": { "f": { "value": ["todos", 1] }, "x": { "pending": true }, "rf": { "error": "boom" } },
            "returned": { "d": { "$undefined": true }, "n": 0 },
            "cacheSize": 4,
            "mutation": { "mutationId": 1, "status": "success", "context": { "previous": [1, 2, null, 3] } },
            "mutations": [ { "mutationId": 2, "exists": true } ],
            "mutationCount": 2 } },
        { "tick": [ { "getQueryData": { "queryKey": ["todos", 1] }, "as": "td" }, { "expect": { "cacheSize": 4 } } ] },
        { "subscribeCache": { "when": { "type": "removed", "queryKey": ["todos", 1] }, "then": [ { "isFetching": {}, "as": "rm" } ] } },
        { "clear": {} }
      ]
    }
    """#

  /// The valid fixtures with their file names.
  static let all: [(file: String, text: String)] = [("dedup-001.json", dedup), ("tour-001.json", tour)]
}

/// A fresh temporary directory removed by `cleanup()`.
struct TemporaryDirectory {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "quarry-tests-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `text` at the relative path, creating folders.
  func write(_ relative: String, _ text: String) {
    let full = path + "/" + relative
    let folder = (full as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: full, contents: Data(text.utf8))
  }

  /// Reads the relative path, or `nil`.
  func read(_ relative: String) -> String? {
    FileManager.default.contents(atPath: path + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
  }

  func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}
