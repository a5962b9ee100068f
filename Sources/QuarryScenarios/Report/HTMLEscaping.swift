import Quarry
/// Escaping for the HTML report: text and attribute values, and JSON embedded in a `<script>`.
enum HTMLEscaping {
  /// `text` safe as element content or a quoted attribute value: `&`, `<`, `>`, `"` and `'`
  /// become character references.
  static func text(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// JSON text safe inside `<script type="application/json">`: `<`, `>` and `&` (which can only
  /// occur inside JSON strings) and the JavaScript line separators become `\uXXXX` escapes, so
  /// no `</script>` or `<!--` can end the element early and the text still parses as the same JSON.
  static func scriptJSON(_ json: String) -> String {
    var out = ""
    out.reserveCapacity(json.utf8.count)
    for scalar in json.unicodeScalars {
      switch scalar {
      case "<": out += "\\u003c"
      case ">": out += "\\u003e"
      case "&": out += "\\u0026"
      case "\u{2028}": out += "\\u2028"
      case "\u{2029}": out += "\\u2029"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
