# Accepts local@domain.tld with a sane local part and a domain of dotted labels.
module EmailCheck
  PATTERN = /\A[a-z0-9.!#$%&'*+\/=?^_`{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)+\z/i

  def self.valid?(value)
    value = value.to_s.strip
    value.length <= 254 && PATTERN.match?(value)
  end
end
