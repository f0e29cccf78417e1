@testable import ScreenDemo
