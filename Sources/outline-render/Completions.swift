import OutlineConvert

/// Shell completion scripts (`--completion-script bash|zsh|fish`), made from the table of
/// options (`Arguments.table`) and the format lists: options, format names after `--from`/`--to`, error
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

    private static var extensions: [String] { InputFormat.all.flatMap(\.extensions) }

    private static var bash: String {
        let options = Arguments.table
        var cases = ""
        for option in options where option.value != nil {
            let pattern = option.names.joined(separator: "|")
            if let choices = option.choices {
                cases += "    \(pattern)) COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            } else if option.completesPath {
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
        for option in Arguments.table {
            let names = option.names
            let long = names.last ?? ""
            let exclusive = names.count > 1 ? "(\(names.joined(separator: " ")))" : ""
            let list = names.count > 1 ? "{\(names.joined(separator: ","))}" : long
            var action = ""
            if let value = option.value {
                if let choices = option.choices {
                    action = ":\(value):(\(choices.joined(separator: " ")))"
                } else if option.completesPath {
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
        for option in Arguments.table {
            var line = "complete -c outline-render"
            for name in option.names {
                line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
            }
            if option.value != nil {
                if let choices = option.choices {
                    line += " -x -a '\(choices.joined(separator: " "))'"
                } else if option.completesPath {
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
