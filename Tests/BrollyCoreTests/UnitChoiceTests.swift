import Foundation
import Testing

@testable import BrollyCore

/// Issue 24: units chosen one by one, exact conversions, the Beaufort scale's edges, region defaults.
@Suite struct UnitChoiceTests {
    @Test func beaufortFollowsTheWMOLimitsAtTheirEdges() {
        let edges: [(Double, Int)] = [
            (0, 0), (0.24, 0), (0.25, 1), (1.5, 1), (1.55, 2), (3.3, 2), (3.4, 3), (5.4, 3), (5.5, 4), (7.9, 4), (8.0, 5), (10.7, 5),
            (10.8, 6), (13.8, 6), (13.9, 7), (17.1, 7), (17.2, 8), (20.7, 8), (20.8, 9), (24.4, 9), (24.5, 10), (28.4, 10),
            (28.5, 11), (32.6, 11), (32.7, 12), (60, 12),
        ]
        for (speed, force) in edges { #expect(WindUnit.beaufort(speed) == force, "\(speed) m/s") }
        #expect(WindUnit.bft.convert(8.0) == 5 && Localization.english.beaufortName(5) == "fresh breeze")
    }

    @Test func conversionsAreExact() {
        #expect(WindUnit.kmh.convert(10) == 36)
        #expect(abs(WindUnit.mph.convert(10) - 22.369_362_9) < 1e-6)
        #expect(abs(WindUnit.kn.convert(10) - 19.438_444_9) < 1e-6)
        #expect(PressureUnit.inhg.convert(33.863_89) == 1)
        #expect(PressureUnit.mmhg.convert(1.333_224) == 1)
        #expect(PressureUnit.kpa.convert(1013.25) == 101.325 && PressureUnit.mbar.convert(1013.25) == 1013.25)
        #expect(abs(PressureUnit.mmhg.convert(1013.25) - 760.0) < 0.01)
        #expect(PrecipitationUnit.inch.convert(25.4) == 1 && DistanceUnit.mi.convert(1609.344) == 1)
    }

    @Test func defaultsFollowTheRegion() {
        let us = UnitChoice.forRegion("US")
        #expect(us.temperature == .fahrenheit && us.wind == .mph && us.pressure == .inhg && us.precipitation == .inch && us.distance == .mi)
        let gb = UnitChoice.forRegion("GB")
        #expect(gb.temperature == .celsius && gb.wind == .mph && gb.pressure == .mbar && gb.precipitation == .mm && gb.distance == .mi)
        let ru = UnitChoice.forRegion("RU")
        #expect(ru.wind == .ms && ru.pressure == .mmhg)
        #expect(UnitChoice.forRegion("NO").wind == .ms && UnitChoice.forRegion("SE").pressure == .hpa)
        let ca = UnitChoice.forRegion("CA")
        #expect(ca.wind == .kmh && ca.pressure == .kpa && ca.temperature == .celsius)
        let de = UnitChoice.forRegion("DE")
        #expect(de.wind == .kmh && de.pressure == .hpa && de.precipitation == .mm && de.temperature == .celsius)
        #expect(UnitChoice.forRegion(nil) == UnitChoice(.metric))
        #expect(UnitChoice.region(ofLocale: "en_US.UTF-8") == "US" && UnitChoice.region(ofLocale: "ru-RU") == "RU")
        #expect(UnitChoice.region(ofLocale: "de_AT@euro") == "AT" && UnitChoice.region(ofLocale: "C.UTF-8") == nil)
        #expect(UnitChoice.region(ofLocale: "POSIX") == nil)
    }

    @Test func presetsKeepTheirMeaning() {
        #expect(UnitChoice(.metric).key == "C/ms/hpa/mm/km")
        #expect(UnitChoice(.imperial).key == "F/mph/hpa/in/mi")
        #expect(UnitChoice(.standard).key == "K/ms/hpa/mm/km")
    }
}
