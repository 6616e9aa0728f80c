/// Pixels as 8-bit red, green, blue, alpha, row by row.
package struct RGBAImage: Equatable {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Shrinks the image (area averaging) so its longer side is at most `maxSide`; smaller images are
    /// returned as they are.
    func fitting(maxSide: Int) -> RGBAImage {
        let longer = max(width, height)
        guard longer > maxSide else { return self }
        let scale = Double(maxSide) / Double(longer)
        let newWidth = max(1, Int((Double(width) * scale).rounded()))
        let newHeight = max(1, Int((Double(height) * scale).rounded()))
        var result = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        for y in 0..<newHeight {
            let y0 = y * height / newHeight
            let y1 = max(y0 + 1, (y + 1) * height / newHeight)
            for x in 0..<newWidth {
                let x0 = x * width / newWidth
                let x1 = max(x0 + 1, (x + 1) * width / newWidth)
                var sums = [Int](repeating: 0, count: 4)
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let offset = (sy * width + sx) * 4
                        for channel in 0..<4 { sums[channel] += Int(pixels[offset + channel]) }
                    }
                }
                let count = (y1 - y0) * (x1 - x0)
                let target = (y * newWidth + x) * 4
                for channel in 0..<4 { result[target + channel] = UInt8((sums[channel] + count / 2) / count) }
            }
        }
        return RGBAImage(width: newWidth, height: newHeight, pixels: result)
    }
}
