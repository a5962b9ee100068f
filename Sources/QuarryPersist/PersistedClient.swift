import Foundation
import Quarry

/// What a persister stores for a whole client (TanStack's `PersistedClient`): the snapshot, when
/// it was taken and the buster it was taken with. Its JSON is TanStack's
/// (`{"buster":"","timestamp":…,"clientState":{"mutations":[…],"queries":[…]}}`).
public struct PersistedClient: Sendable, Codable {
  /// When the snapshot was taken, in ms since the epoch (0: unknown, which restore discards).
  public var timestamp: Double
  /// The buster the snapshot was taken with; restore discards one that differs.
  public var buster: String
  /// The snapshot.
  public var clientState: DehydratedState

  /// Creates a persisted client.
  public init(timestamp: Double, buster: String, clientState: DehydratedState) {
    self.timestamp = timestamp
    self.buster = buster
    self.clientState = clientState
  }

  private enum CodingKeys: String, CodingKey { case timestamp, buster, clientState }

  /// Reads TanStack's JSON; a missing timestamp is 0 and a missing buster `""`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    timestamp = try c.decodeIfPresent(Double.self, forKey: .timestamp) ?? 0
    buster = try c.decodeIfPresent(String.self, forKey: .buster) ?? ""
    clientState = try c.decode(DehydratedState.self, forKey: .clientState)
  }

  /// The JSON text a storage persister writes (TanStack's `JSON.stringify`).
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// Reads JSON written by ``jsonData()`` or by TanStack.
  public init(jsonData: Data) throws {
    self = try JSONDecoder().decode(PersistedClient.self, from: jsonData)
  }
}
