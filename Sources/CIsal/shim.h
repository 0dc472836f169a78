#ifndef CISAL_SHIM_H
#define CISAL_SHIM_H
#include <isa-l/igzip_lib.h>
#include <string.h>

// Whether the member being inflated has ended: its data handed out whole and its check compared.
static inline int cisal_member_finished(const struct inflate_state *state) {
    return state->block_state == ISAL_BLOCK_FINISH;
}

// A member's header read here (a zlib stream's two bytes): inflate goes on to its deflate data.
static inline void cisal_header_done(struct inflate_state *state) { state->wrapper_flag = 1; }

// Copies to `out` up to `count` of the bytes ISA-L inflated into its own buffer and has not handed out (when it
// stops at a fault, those before it are still there); returns how many.
static inline uint32_t cisal_take_pending(struct inflate_state *state, uint8_t *out, uint32_t count) {
    const int32_t pending = state->tmp_out_valid - state->tmp_out_processed;
    const uint32_t take = pending <= 0 ? 0 : (uint32_t)pending < count ? (uint32_t)pending : count;
    memcpy(out, state->tmp_out_buffer + state->tmp_out_processed, take);
    state->tmp_out_processed += (int32_t)take;
    return take;
}
#endif
