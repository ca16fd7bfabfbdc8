package media

import (
	"image"

	"golang.org/x/image/draw"
)

// ResizeToFit scales src down so that it fits in a box of w×h, keeping its aspect ratio.
func ResizeToFit(src image.Image, w, h int) image.Image {
	b := src.Bounds()
	scale := min(float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy()), 1)
	dst := image.NewRGBA(image.Rect(0, 0, int(float64(b.Dx())*scale), int(float64(b.Dy())*scale)))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Over, nil)
	return dst
}
