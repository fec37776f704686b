import OutlineConvert

/// Shell completion scripts (`--completion-script bash|zsh|fish`), made from the options
/// of `--help` and the format lists: options, format names after `--from`/`--to`, error
/// formats, folders and files of the formats read for inputs.
enum Completions {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String {
        switch shell {
        case "zsh": return zsh
        case "fish": return fish
        default: return bash
        }
    }

    private static var inputNames: [String] { InputFormat.all.map(\.name) }
    private static var outputNames: [String] { OutputFormat.all.map(\.name) }
    private static var extensions: [String] { InputFormat.all.flatMap(\.extensions) }
    /// The values to offer after an option, by its value's placeholder and name.
    private static func choices(_ names: [String], _ value: String) -> [String]? {
        if names.contains("--from") { return inputNames }
        if names.contains("--to") { return outputNames }
        if names.contains("--error-format") { return ["gnu", "github"] }
        if names.contains("--completion-script") { return shells }
        return nil
    }

    private static func takesPath(_ value: String) -> Bool { ["path", "file", "folder"].contains(value) }

    private static var bash: String {
        let options = Arguments.options
        var cases = ""
        for (names, value) in options {
            guard let value else { continue }
            let pattern = names.joined(separator: "|")
            if let choices = choices(names, value) {
                cases += "    \(pattern)) COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            } else if takesPath(value) {
                cases += "    \(pattern)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
            } else {
                cases += "    \(pattern)) return ;;\n"
            }
        }
        let words = options.flatMap(\.names).joined(separator: " ")
        let pattern = extensions.joined(separator: "|")
        return """
            # bash completion for outline-render (outline-render --completion-script bash)
            _outline_render() {
              local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
              COMPREPLY=()
              case "$prev" in
            \(cases)  esac
              if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "\(words)" -- "$cur"))
                return
              fi
              local IFS=$'\\n'
              COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -- "$cur" | grep -iE '\\.(\(pattern))$'))
            }
            complete -o filenames -F _outline_render outline-render

            """
    }

    private static var zsh: String {
        var specs: [String] = []
        for (names, value) in Arguments.options {
            let long = names.last ?? ""
            let exclusive = names.count > 1 ? "(\(names.joined(separator: " ")))" : ""
            let list = names.count > 1 ? "{\(names.joined(separator: ","))}" : long
            var action = ""
            if let value {
                if let choices = choices(names, value) {
                    action = ":\(value):(\(choices.joined(separator: " ")))"
                } else if takesPath(value) {
                    action = ":\(value):_files"
                } else {
                    action = ":\(value): "
                }
            }
            specs.append("'\(exclusive)'\(list)'[\(long)]\(action)'")
        }
        let globs = extensions.map { "*.\($0)" }.joined(separator: " ")
        return """
            #compdef outline-render
            # zsh completion for outline-render (outline-render --completion-script zsh)
            _arguments -s \\
              \(specs.joined(separator: " \\\n  ")) \\
              '*:input:_files -g "\(globs)"'

            """
    }

    private static var fish: String {
        var lines = ["# fish completion for outline-render (outline-render --completion-script fish)"]
        lines.append("complete -c outline-render -f -a '(__fish_complete_suffix \(extensions.map { "." + $0 }.joined(separator: " ")))'")
        lines.append("complete -c outline-render -f -a '(__fish_complete_directories)'")
        for (names, value) in Arguments.options {
            var line = "complete -c outline-render"
            for name in names {
                line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
            }
            if let value {
                if let choices = choices(names, value) {
                    line += " -x -a '\(choices.joined(separator: " "))'"
                } else if takesPath(value) {
                    line += " -r -F"
                } else {
                    line += " -x"
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
