import Foundation

/// Finds the Swift files of a folder for the map.
enum SourceFolder {
  /// Folders never read: dependencies and build output.
  static let skipped: Set<String> = ["Pods", "Carthage", ".build", "DerivedData", "node_modules"]

  /// The `.swift` files under `folder`, each as `(path, text)` with the path
  /// `FolderName/Sub/File.swift`, sorted; and a warning for each file or folder skipped.
  static func swiftFiles(in folder: String, excluding: Set<String>) throws(MapError) -> (
    files: [(path: String, text: String)], warnings: [String]
  ) {
    let manager = FileManager.default
    var isFolder: ObjCBool = false
    guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw MapError(description: "\(folder): no such folder")
    }
    let root = URL(fileURLWithPath: folder).standardizedFileURL
    let rootName = root.lastPathComponent
    var files: [(path: String, text: String)] = []
    var warnings: [String] = []
    var visited: Set<String> = []
    var pending: [(url: URL, relative: String)] = [(root, "")]
    while let (url, relative) = pending.popLast() {
      // A folder reached twice through links is read once.
      let real = url.resolvingSymlinksInPath().path
      guard visited.insert(real).inserted else {
        warnings.append("\(rootName)/\(relative): skipped, a link to a folder already read")
        continue
      }
      let entries: [String]
      do {
        entries = try manager.contentsOfDirectory(atPath: url.path).sorted()
      } catch {
        warnings.append("\(rootName)/\(relative): skipped, cannot be read")
        continue
      }
      for entry in entries {
        let child = url.appendingPathComponent(entry)
        let childRelative = relative.isEmpty ? entry : relative + "/" + entry
        var childIsFolder: ObjCBool = false
        guard manager.fileExists(atPath: child.path, isDirectory: &childIsFolder) else {
          warnings.append("\(rootName)/\(childRelative): skipped, a broken link")
          continue
        }
        if childIsFolder.boolValue {
          if entry.hasPrefix(".") || skipped.contains(entry) || excluding.contains(entry) {
            continue
          }
          pending.append((child, childRelative))
        } else if entry.hasSuffix(".swift"), !excluding.contains(entry) {
          guard let data = manager.contents(atPath: child.path) else {
            warnings.append("\(rootName)/\(childRelative): skipped, cannot be read")
            continue
          }
          guard !data.contains(0), let text = String(data: data, encoding: .utf8) else {
            warnings.append("\(rootName)/\(childRelative): skipped, not UTF-8 text")
            continue
          }
          files.append((rootName + "/" + childRelative, text))
        }
      }
    }
    files.sort { $0.path < $1.path }
    return (files, warnings)
  }
}
