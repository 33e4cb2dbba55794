import ADVHarnessSupport
import ExtensionRuntime
import Foundation

ADVHarnessSupport.register()

let arguments = Array(CommandLine.arguments.dropFirst())
exit(HarnessCommand.run(arguments))
