import Foundation

exit(CLI().run())
