// A photo made ready on the device (a plant observation's, a trail's): drawn onto a canvas at most 2,048 px a
// side (and a 320 px thumbnail), and encoded as JPEG. Drawing re-encodes the picture, so the camera's EXIF (with
// its GPS position) never leaves the phone; the server cleans what it gets again anyway.

/** Resolves to { photo, thumbnail } as data: URLs, and { width, height } of the photo. */
export async function preparePhoto(file) {
  const bitmap = await createImageBitmap(file);
  try {
    const photo = draw(bitmap, 2048, 0.85);
    const thumbnail = draw(bitmap, 320, 0.8);
    return { photo: photo.url, thumbnail: thumbnail.url, width: photo.width, height: photo.height };
  } finally {
    bitmap.close?.();
  }
}

function draw(bitmap, maxSide, quality) {
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d").drawImage(bitmap, 0, 0, width, height);
  return { url: canvas.toDataURL("image/jpeg", quality), width, height };
}
