import Foundation
import Geo
import Routing

/// The route image of an activity (run-route-planner 9.2.1): an SVG drawn by the server, the recorded path
/// over the walkable streets around it (from the street network), the planned route beneath it when there
/// was one, and the start and finish. About 10–40 kB: light enough for a history list, kept on the device
/// to open offline.
///
/// The frame is the path's box with a margin, widened to 8:5 so that images line up in a list; streets come
/// from `StreetRouter.streetLayer` (thinned and simplified for the box), and every line is simplified again
/// (Douglas–Peucker) to half a pixel of the 640 × 400 frame, coordinates to a tenth of a pixel.
struct ActivityImage {
    static let width = 640.0
    static let height = 400.0
    /// Most streets drawn; beyond, the street layer keeps the larger ones.
    static let maxStreets = 2_500

    var track: [Coordinate]
    var plannedRoute: [Coordinate]?
    /// Said by the image to screen readers.
    var title: String
    /// Shown over the frame when the privacy zone hides the whole track.
    var hiddenNote: String?

    func svg(streets map: StreetMap?) -> String {
        let all = track + (plannedRoute ?? [])
        let frame = Frame(around: all.isEmpty ? nil : all)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" \
            width="\(Int(Self.width))" height="\(Int(Self.height))" role="img" aria-labelledby="t">\
            <title id="t">\(Self.escaped(title))</title>\
            <rect width="100%" height="100%" fill="#eef1ec"/>
            """
        if let map, let box = frame.box {
            let layer = map.router.streetLayer(in: box, maxFeatures: Self.maxStreets)
            var major = "", minor = "", sheltered = ""
            for feature in layer.features.features {
                guard case .lineString(let positions) = feature.geometry else { continue }
                let path = frame.path(positions.map(\.coordinate))
                guard !path.isEmpty else { continue }
                if feature.properties?["sheltered"] == .bool(true) {
                    sheltered += path
                } else if case .string(let highway)? = feature.properties?["highway"],
                    Self.majorHighways.contains(highway)
                {
                    major += path
                } else {
                    minor += path
                }
            }
            svg += Self.stroke(minor, colour: "#c9cec6", width: 2)
            svg += Self.stroke(major, colour: "#b3b9b0", width: 3.5)
            svg += Self.stroke(sheltered, colour: "#b9a7d6", width: 3)
        }
        if let plannedRoute, !plannedRoute.isEmpty {
            svg += Self.stroke(
                frame.path(plannedRoute), colour: "#5b6b8c", width: 3, extra: #" stroke-dasharray="6 5""#)
        }
        if track.count >= 2 {
            let path = frame.path(track)
            svg += Self.stroke(path, colour: "#ffffff", width: 9)
            svg += Self.stroke(path, colour: "#d9480f", width: 5)
        }
        if let first = track.first, let last = track.last {
            let start = frame.point(first), end = frame.point(last)
            svg += ##"<circle cx="\##(end.x)" cy="\##(end.y)" r="8" fill="#1f2a24" stroke="#fff" stroke-width="3"/>"##
            svg +=
                ##"<circle cx="\##(start.x)" cy="\##(start.y)" r="6" fill="#2f9e44" stroke="#fff" stroke-width="3"/>"##
        }
        if let hiddenNote {
            svg += """
                <text x="320" y="205" text-anchor="middle" font-family="sans-serif" font-size="18" \
                fill="#1f2a24">\(Self.escaped(hiddenNote))</text>
                """
        }
        if map != nil {
            svg += """
                <text x="634" y="394" text-anchor="end" font-family="sans-serif" font-size="11" \
                fill="#4a524c">© OpenStreetMap contributors</text>
                """
        }
        return svg + "</svg>"
    }

    static let majorHighways: Set<String> = [
        "trunk", "primary", "secondary", "tertiary", "pedestrian", "residential", "living_street", "unclassified",
        "road",
    ]

    private static func stroke(_ path: String, colour: String, width: Double, extra: String = "") -> String {
        guard !path.isEmpty else { return "" }
        return """
            <path d="\(path)" fill="none" stroke="\(colour)" stroke-width="\(width)" \
            stroke-linecap="round" stroke-linejoin="round"\(extra)/>
            """
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// The part of the map an image shows, and how coordinates become pixels.
    struct Frame {
        var box: BoundingBox?
        private let projection: LocalProjection
        private let scale: Double
        private let originX: Double
        private let originY: Double

        /// The box of `points` with a margin of a tenth on each side (at least 80 m), widened to 8:5.
        init(around points: [Coordinate]?) {
            guard let points, let first = points.first else {
                box = nil
                projection = LocalProjection(origin: Coordinate(latitude: 0, longitude: 0))
                scale = 1
                originX = 0
                originY = 0
                return
            }
            let projection = LocalProjection(origin: first)
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for point in points {
                let (x, y) = projection.project(point)
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
            var width = max(maxX - minX, 1) * 1.2, height = max(maxY - minY, 1) * 1.2
            width = max(width, 160)
            height = max(height, 100)
            let aspect = ActivityImage.width / ActivityImage.height
            if width / height < aspect { width = height * aspect } else { height = width / aspect }
            let centreX = (minX + maxX) / 2, centreY = (minY + maxY) / 2
            self.projection = projection
            scale = ActivityImage.width / width
            originX = centreX - width / 2
            originY = centreY + height / 2
            let southWest = projection.unproject(x: originX, y: originY - height)
            let northEast = projection.unproject(x: originX + width, y: originY)
            box = BoundingBox(
                south: southWest.latitude, west: southWest.longitude, north: northEast.latitude,
                east: northEast.longitude)
        }

        func point(_ coordinate: Coordinate) -> (x: Double, y: Double) {
            let (x, y) = projection.project(coordinate)
            return (Self.rounded((x - originX) * scale), Self.rounded((originY - y) * scale))
        }

        /// `M x y L x y …` of the line, simplified to half a pixel.
        func path(_ line: [Coordinate]) -> String {
            let pixels = ActivityImage.simplified(line.map(point), tolerance: 0.5)
            guard pixels.count >= 2 else { return "" }
            var text = ""
            for (index, pixel) in pixels.enumerated() {
                text += index == 0 ? "M" : "L"
                text += "\(Self.number(pixel.x)) \(Self.number(pixel.y))"
            }
            return text
        }

        private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

        private static func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }

    /// Douglas–Peucker (Douglas & Peucker 1973) in pixels: the ends and every point farther than
    /// `tolerance` from the simplified line.
    static func simplified(_ points: [(x: Double, y: Double)], tolerance: Double) -> [(x: Double, y: Double)] {
        LineSimplification.keptIndices(count: points.count, tolerance: tolerance) { index, first, last in
            let p = points[index], a = points[first], b = points[last]
            return SegmentProjection(px: p.x, py: p.y, ax: a.x, ay: a.y, bx: b.x, by: b.y).distance
        }.map { points[$0] }
    }
}
