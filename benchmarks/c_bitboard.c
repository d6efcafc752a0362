/*
 * c_bitboard.c: a plain bitboard tiling counter, the reference for bench_count.py.
 *
 * The board is at most 64 cells, one bit each; cells outside the board start filled.
 * The search always fills the first empty cell (lowest clear bit), trying only the
 * placements whose lowest cell is that cell: every cell below it is already filled, so
 * no other placement can cover it. No symmetry breaking: it counts raw solutions.
 *
 * Input (stdin, whitespace separated, written by bench_count.py):
 *     n_pieces  board_mask  n_placements
 *     piece mask            (n_placements lines; masks are unsigned 64-bit decimals)
 * Output (stdout): "count seconds nodes", seconds being the search alone (CLOCK_MONOTONIC).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_PIECES 32

typedef struct {
    uint64_t mask;
    uint32_t piece_bit;
} Placement;

/* Placements grouped by their lowest cell: by_cell[start[c] .. start[c + 1]). */
static Placement *by_cell;
static int start[65];
static uint64_t full = ~(uint64_t)0;
static uint64_t n_solutions;
static uint64_t n_nodes;

static void search(uint64_t filled, uint32_t used) {
    if (filled == full) {
        n_solutions++;
        return;
    }
    n_nodes++;
    int cell = __builtin_ctzll(~filled);
    for (int i = start[cell]; i < start[cell + 1]; i++) {
        const Placement *p = &by_cell[i];
        if ((used & p->piece_bit) == 0 && (filled & p->mask) == 0) {
            search(filled | p->mask, used | p->piece_bit);
        }
    }
}

static int by_lowest_cell(const void *a, const void *b) {
    int ca = __builtin_ctzll(((const Placement *)a)->mask);
    int cb = __builtin_ctzll(((const Placement *)b)->mask);
    return ca - cb;
}

int main(void) {
    int n_pieces, n;
    unsigned long long board;
    if (scanf("%d %llu %d", &n_pieces, &board, &n) != 3 || n_pieces < 1 ||
        n_pieces > MAX_PIECES || n < 1) {
        fprintf(stderr, "c_bitboard: bad header\n");
        return 2;
    }
    by_cell = malloc(sizeof(Placement) * (size_t)n);
    if (by_cell == NULL) {
        fprintf(stderr, "c_bitboard: out of memory\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        int piece;
        unsigned long long mask;
        if (scanf("%d %llu", &piece, &mask) != 2 || piece < 0 || piece >= n_pieces ||
            mask == 0 || (mask & ~board) != 0) {
            fprintf(stderr, "c_bitboard: bad placement %d\n", i);
            return 2;
        }
        by_cell[i].mask = (uint64_t)mask;
        by_cell[i].piece_bit = (uint32_t)1 << piece;
    }
    qsort(by_cell, (size_t)n, sizeof(Placement), by_lowest_cell);
    int k = 0;
    for (int c = 0; c <= 64; c++) {
        while (k < n && __builtin_ctzll(by_cell[k].mask) < c) k++;
        start[c] = k;
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    search(~(uint64_t)board, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%llu %.6f %llu\n", (unsigned long long)n_solutions, seconds,
           (unsigned long long)n_nodes);
    free(by_cell);
    return 0;
}
