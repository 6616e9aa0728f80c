import Foundation

/// Distances, bearings and destinations on the Earth.
///
/// `haversine` uses the mean-radius sphere and is what hot loops should call; `geodesicDistance` solves the
/// inverse problem on the WGS 84 ellipsoid (Vincenty 1975, with a spherical fallback for the rare nearly
/// antipodal pairs where the iteration does not converge) and is accurate to well under a millimetre.
public enum Earth {
    /// Mean Earth radius (IUGG), metres.
    public static let meanRadiusMeters = 6_371_008.8
    /// WGS 84 semi-major axis, metres.
    public static let wgs84SemiMajorAxisMeters = 6_378_137.0
    /// WGS 84 flattening.
    public static let wgs84Flattening = 1 / 298.257_223_563
}

@inline(__always) func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
@inline(__always) func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

extension Coordinate {
    /// Great-circle distance in metres on the mean-radius sphere (error ≤ 0.5 % against the ellipsoid).
    @inlinable
    public func haversineDistance(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let dφ = φ2 - φ1
        let dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * Earth.meanRadiusMeters * asin(min(1, a.squareRoot()))
    }

    /// Distance in metres along the WGS 84 ellipsoid (Vincenty's inverse formula).
    public func geodesicDistance(to other: Coordinate) -> Double {
        let a = Earth.wgs84SemiMajorAxisMeters
        let f = Earth.wgs84Flattening
        let b = a * (1 - f)
        // The longitude difference L and the reduced latitudes U1, U2 of the formula.
        let l = radians(other.longitude - longitude)
        let reduced1 = atan((1 - f) * tan(radians(latitude)))
        let reduced2 = atan((1 - f) * tan(radians(other.latitude)))
        let sinU1 = sin(reduced1), cosU1 = cos(reduced1), sinU2 = sin(reduced2), cosU2 = cos(reduced2)

        var λ = l
        for _ in 0..<200 {
            let sinλ = sin(λ), cosλ = cos(λ)
            let sinσ =
                ((cosU2 * sinλ) * (cosU2 * sinλ)
                + (cosU1 * sinU2 - sinU1 * cosU2 * cosλ) * (cosU1 * sinU2 - sinU1 * cosU2 * cosλ)).squareRoot()
            if sinσ == 0 { return 0 }
            let cosσ = sinU1 * sinU2 + cosU1 * cosU2 * cosλ
            let σ = atan2(sinσ, cosσ)
            let sinα = cosU1 * cosU2 * sinλ / sinσ
            let cos2α = 1 - sinα * sinα
            let cos2σm = cos2α == 0 ? 0 : cosσ - 2 * sinU1 * sinU2 / cos2α
            let c = f / 16 * cos2α * (4 + f * (4 - 3 * cos2α))
            let previous = λ
            λ = l + (1 - c) * f * sinα * (σ + c * sinσ * (cos2σm + c * cosσ * (-1 + 2 * cos2σm * cos2σm)))
            if abs(λ - previous) < 1e-12 {
                let u2 = cos2α * (a * a - b * b) / (b * b)
                let seriesA = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
                let seriesB = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
                let Δσ =
                    seriesB * sinσ
                    * (cos2σm + seriesB / 4
                        * (cosσ * (-1 + 2 * cos2σm * cos2σm)
                            - seriesB / 6 * cos2σm * (-3 + 4 * sinσ * sinσ) * (-3 + 4 * cos2σm * cos2σm)))
                return b * seriesA * (σ - Δσ)
            }
        }
        return haversineDistance(to: other)
    }

    /// Initial bearing from this point towards `other`, degrees clockwise from true north in [0, 360).
    public func bearing(to other: Coordinate) -> Double {
        let φ1 = radians(latitude), φ2 = radians(other.latitude)
        let dλ = radians(other.longitude - longitude)
        let y = sin(dλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        let θ = degrees(atan2(y, x))
        return (θ + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The point reached by travelling `distanceMeters` from here along a great circle at `bearingDegrees`.
    public func destination(distanceMeters: Double, bearingDegrees: Double) -> Coordinate {
        let δ = distanceMeters / Earth.meanRadiusMeters
        let θ = radians(bearingDegrees)
        let φ1 = radians(latitude), λ1 = radians(longitude)
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        let lon = (degrees(λ2) + 540).truncatingRemainder(dividingBy: 360) - 180
        return Coordinate(latitude: degrees(φ2), longitude: lon)
    }
}

extension Sequence where Element == Coordinate {
    /// Length in metres of the polyline through these points (haversine per segment).
    public var pathLengthMeters: Double {
        var total = 0.0
        var previous: Coordinate?
        for point in self {
            if let p = previous { total += p.haversineDistance(to: point) }
            previous = point
        }
        return total
    }
}
