/// CRC-32 (IEEE 802.3) of a byte slice, table-driven.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for i in 0..256u32 {
        let mut c = i;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        table[i as usize] = c;
    }
    let mut crc = !0u32;
    for &b in bytes {
        crc = table[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

/// True when the blob's CRC matches the one the manifest lists.
pub fn matches_manifest(blob: &[u8], expected: u32) -> bool {
    crc32(blob) == expected
}
