#include "providers/responses_codec.hpp"
#include "tests/fuzz/fuzz_stream_decoders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return decode_stream<rio::ResponsesStream>(data, size);
}
