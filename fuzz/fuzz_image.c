/* fuzz_image.c - libFuzzer harness of the image readers (common/image.h):
 * the input is a file read from memory (image_read_mem) as a .pgm, a .ppm,
 * a .npy and a .raw of 16 x 16 (each reader refuses the others' files at
 * their first bytes). An image that loads must be within the limits of
 * image.h and, written again in its format (or as .npy where PGM and PPM
 * cannot hold it), read back to the same dimensions, sample width and
 * samples. */
#include "fuzz.h"

#include "../common/image.h"

/* im written as path's format into memory and read back: the same image. */
static void round_trip(const Image *im, const char *path)
{
	char *buf = NULL, *err = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	FUZZ_CHECK(f, "open_memstream");
	int wrote = image_write(im, path, f, &err);
	fclose(f);
	FUZZ_CHECK(wrote, "%s: an image read cannot be written again: %s", path, err ? err : "");
	Image back;
	int read = image_read_mem(path, (const unsigned char *)buf, len, im, &back, &err);
	FUZZ_CHECK(read, "%s: an image written cannot be read back: %s", path, err ? err : "");
	FUZZ_CHECK(image_size(&back) == image_size(im) && back.bits == (im->bits == 8 ? 8 : 16),
		   "%s: read back with another size or sample width", path);
	FUZZ_CHECK(!memcmp(back.px, im->px, sizeof *im->px * (size_t)image_size(im)),
		   "%s: read back with other samples", path);
	image_free(&back);
	free(buf);
}

static void check(const Image *im, const char *path)
{
	int64_t ext[4] = { 0 };
	for (int i = 0; i < im->dims; i++)
		ext[i] = im->extent[i];
	char *err = NULL;
	FUZZ_CHECK(image_shape_ok(im->dims, ext, &err), "%s: an image beyond the limits loaded: %s", path, err);
	FUZZ_CHECK(im->bits == 8 || im->bits == 16, "%s: %d-bit samples", path, im->bits);
	const char *ext_name = strrchr(path, '.') + 1;
	if (!strcmp(ext_name, "raw"))
		round_trip(im, "again.raw");
	else if (!strcmp(ext_name, "npy"))
		round_trip(im, "again.npy");
	else
		round_trip(im, !strcmp(ext_name, "pgm") ? "again.pgm" : "again.ppm");
	round_trip(im, "again.npy");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "fuzz.pgm", "fuzz.ppm", "fuzz.npy", "fuzz.raw" };
	Image want = { .dims = 2, .extent = { 16, 16 } };
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		Image im;
		char *err = NULL;
		if (image_read_mem(names[k], data, size, &want, &im, &err)) {
			FUZZ_CHECK(!err, "%s: a message on success", names[k]);
			check(&im, names[k]);
		} else {
			FUZZ_CHECK(err && !im.px, "%s: refused without a message, or with samples left", names[k]);
			fputs(err, fuzz_sink());
		}
		free(err);
		image_free(&im);
	}
	return 0;
}
