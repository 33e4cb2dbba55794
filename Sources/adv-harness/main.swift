import ExtensionRuntime
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
exit(HarnessCommand.run(arguments))
